import './koa-context.js';

export { AppError, type AppErrorOptions } from './app-error.js';
export { envHttpUrls, envInteger, envOptionalHttpUrl, unsetWhenEmpty } from './config.js';
export { loadConfig, loadOrExit, type Env } from './config.js';
export { createService, type RouterMiddleware, type ServiceOptions } from './create-service.js';
export type { ReadinessCheck } from './health.js';
export { createLogger, type Logger, type LoggerOptions, type LogLevel } from './logger.js';
export { connectMongo, type ConnectMongoOptions } from './mongo.js';
export { decodeCursor, encodeCursor, pageOf } from './pagination.js';
export type { RunningService, RunServiceOptions, ShutdownHook } from './run-service.js';
export { nextSequenceValue, SequenceBlocks } from './sequences.js';
export { serviceConfig, serviceEnv, type ServiceConfig, type ServiceEnv } from './service-env.js';
export { eventsConfigOf, eventsEnv, type EventsEnv } from './service-env.js';
export { getPetDeprecationEnv, getPetDeprecationOf } from './service-env.js';
export { startService, type ServiceDatabase, type ServiceParts } from './start-service.js';
export type {
  ServiceSetUp,
  StartedService,
  StartOptions,
  StartServiceOptions,
} from './start-service.js';
export { callerOf, requireAdmin, requireCaller, setCaller, trustGateway } from './trust-gateway.js';
export { internalHeaders, type Caller, type Role } from './trust-gateway.js';
export { Worker, type WorkerOptions } from './worker.js';
export { databaseGauge, rateLimitRejections, upstreamErrors } from './telemetry/metrics.js';
export { currentTraceparent, contextFrom, inSpan, SpanKind } from './telemetry/tracing.js';
export { withTraceContext } from './telemetry/tracing.js';
export { eventRelay, type EventRelayOptions } from './events/event-relay.js';
export { eventSender, type EventSenderOptions } from './events/event-relay.js';
export { eventSource, type EventSource, type EventSourceOptions } from './events/event-source.js';
export type { HeldEvent } from './events/event-source.js';
export { carrying, recordEvent, takenOff, withEvent } from './events/pending-events.js';
export type { PendingEvent, RecordedUpdate, WithPendingEvents } from './events/pending-events.js';
