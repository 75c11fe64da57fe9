export { embeddedDatabase, startEmbedded, startMongo } from './start-mongo.js';
export { startEmbeddedFerretdb, type EmbeddedOptions } from './embedded-ferretdb.js';
export { containerLabel } from './mongo-container.js';
export type { EmbeddedDatabase, MongoServer } from './mongo-server.js';
export { startMongoJavaServer, type MongoJavaServerOptions } from './mongo-java-server.js';
export { serveHttp, type HttpHandler, type ServedHttp } from './serve-http.js';
export { freePort } from './free-port.js';
export { spawnGuarded, stopGuarded, type GuardedOptions } from './guarded-process.js';
export { runMain, type RunningMain } from './run-main.js';
