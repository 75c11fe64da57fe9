import './koa-context.js';

export { AppError, type AppErrorOptions } from './app-error.js';
export {
  envHost,
  envHttpUrl,
  envInstant,
  envInteger,
  envLogLevel,
  envMongoUri,
  envOptionalHttpUrl,
  envPort,
  loadConfig,
  loadOrExit,
  serviceConfig,
  serviceEnv,
  unsetWhenEmpty,
  type Env,
  type ServiceEnv,
} from './config.js';
export { createService, type RouterMiddleware, type ServiceOptions } from './create-service.js';
export { internalHeaders, type Caller, type Role } from './internal-headers.js';
export { createLogger, type Logger, type LoggerOptions, type LogLevel } from './logger.js';
export { connectMongo, type ConnectMongoOptions } from './mongo.js';
export { decodeCursor, encodeCursor, pageOf } from './pagination.js';
export type { ReadinessCheck } from './readiness.js';
export {
  runService,
  type RunningService,
  type RunServiceOptions,
  type ShutdownHook,
} from './run-service.js';
export { nextSequenceValue } from './sequences.js';
export { callerOf, requireCaller, trustGateway } from './trust-gateway.js';
