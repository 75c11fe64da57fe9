export { startMongo } from './start-mongo.js';
export { containerLabel } from './mongo-container.js';
export type { MongoServer } from './mongo-server.js';
export { startMongod, type MongodOptions } from './mongod.js';
export { mongodBinary } from './mongod-binary.js';
export { initiateReplicaSet, replicaSetName } from './replica-set.js';
export { serviceTestEnv } from './service-test-env.js';
export { serveHttp, type HttpHandler, type ServedHttp } from './serve-http.js';
export { EventReceiver, type ReceivedBatch } from './event-receiver.js';
export {
  callHttp,
  readAnswer,
  type HttpAnswer,
  type HttpCallOptions,
} from './call-http.js';
export {
  accounts,
  gatewayHeaders,
  testInternalToken,
  type Account,
  type Who,
} from './gateway-identity.js';
export { ServiceUnderTest, type RunningService } from './service-under-test.js';
export { fileFixture } from './file-fixture.js';
export { freePort } from './free-port.js';
export {
  spawnGuarded,
  stopGuarded,
  type GuardedOptions,
} from './guarded-process.js';
export { runMain, type RunningMain } from './run-main.js';
