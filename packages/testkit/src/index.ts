export { startMongo } from './start-mongo.js';
export { startEmbeddedFerretdb, type EmbeddedOptions } from './embedded-ferretdb.js';
export { containerLabel } from './mongo-container.js';
export type { MongoServer } from './mongo-server.js';
export { serveHttp, type HttpHandler, type ServedHttp } from './serve-http.js';
export { callHttp, type HttpAnswer, type HttpCallOptions } from './call-http.js';
export { freePort } from './free-port.js';
export { spawnGuarded, stopGuarded, type GuardedOptions } from './guarded-process.js';
export { runMain, type RunningMain } from './run-main.js';
