import './koa-context.js';

export { AppError, type AppErrorOptions } from './app-error.js';
export { loadConfig, loadOrExit, type Env } from './config.js';
export {
  envHost,
  envHttpUrl,
  envHttpUrls,
  envInstant,
  envInteger,
  envLogLevel,
  envMongoUri,
  envOptionalHttpUrl,
  envPort,
  unsetWhenEmpty,
} from './env-variables.js';
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
export { nextSequenceValue, SequenceBlocks } from './sequences.js';
export { callerOf, requireAdmin, requireCaller, setCaller } from './caller.js';
export { getPetDeprecationEnv, getPetDeprecationOf } from './get-pet-deprecation-env.js';
export { serviceConfig, serviceEnv, type ServiceConfig, type ServiceEnv } from './service-env.js';
export {
  startService,
  type ServiceParts,
  type ServiceSetUp,
  type StartedService,
  type StartOptions,
  type StartServiceOptions,
} from './start-service.js';
export { trustGateway } from './trust-gateway.js';
export { Worker, type WorkerOptions } from './worker.js';
export type { ServiceDatabase } from './service-database.js';
export { databaseGauge, rateLimitRejections, upstreamErrors } from './telemetry/metrics.js';
export {
  currentTraceparent,
  contextFrom,
  inSpan,
  SpanKind,
  withTraceContext,
} from './telemetry/tracing.js';
export { eventRelay, EVENT_BATCH, type EventRelayOptions } from './events/event-relay.js';
export {
  eventSource,
  type EventSource,
  type EventSourceOptions,
  type HeldEvent,
} from './events/event-source.js';
export { eventsConfigOf, eventsEnv, type EventsEnv } from './events/events-env.js';
export {
  carrying,
  newEventId,
  recordEvent,
  takenOff,
  withEvent,
  type PendingEvent,
  type RecordedUpdate,
  type WithPendingEvents,
} from './events/pending-events.js';
export { eventSender, type EventSenderOptions } from './events/send-events.js';
