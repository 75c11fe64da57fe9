import './koa-context.js';

export { AppError, toAppError, type AppErrorOptions } from './app-error.js';
export { batched, type Batched, type BatchedOptions } from './batched.js';
export {
  envHttpUrls,
  envInstant,
  envInteger,
  envOptionalHttpUrl,
} from './config.js';
export { unsetWhenEmpty } from './config.js';
export { loadConfig, loadOrExit, type Env } from './config.js';
export {
  serviceConfig,
  serviceEnv,
  type ServiceConfig,
  type ServiceEnv,
} from './config.js';
export { eventsConfigOf, eventsEnv } from './config.js';
export type { EventsEnv } from './config.js';
export {
  createService,
  refuseBodyWhereNone,
  type RouterMiddleware,
  type ServiceOptions,
} from './create-service.js';
export type { ReadinessCheck } from './health.js';
export { hasBody, jsonBody, readBody } from './json-body.js';
export { tooLarge } from './too-large.js';
export {
  createLogger,
  type Logger,
  type LoggerOptions,
  type LogLevel,
} from './logger.js';
export {
  connectMongo,
  isDuplicateKey,
  type ConnectMongoOptions,
} from './mongo.js';
export { decodeCursor, encodeCursor, findPage, pageOf } from './pagination.js';
export type { IdPage, TimePage, TimePosition } from './pagination.js';
export type {
  RunningService,
  RunServiceOptions,
  ShutdownHook,
} from './run-service.js';
export { nextSequenceValue, SequenceBlocks } from './sequences.js';
export {
  startService,
  type ServiceDatabase,
  type ServiceParts,
} from './start-service.js';
export type {
  ServiceSetUp,
  StartedService,
  StartOptions,
} from './start-service.js';
export type { StartServiceOptions } from './start-service.js';
export {
  callerOf,
  requireAdmin,
  requireCaller,
  setCaller,
  trustGateway,
} from './trust-gateway.js';
export { internalHeaders, type Caller } from './trust-gateway.js';
export { Worker, type WorkerOptions } from './worker.js';
export {
  databaseGauge,
  rateLimitRejections,
  registry,
  upstreamErrors,
} from './telemetry/telemetry.js';
export {
  currentTraceparent,
  contextFrom,
  inSpan,
  SpanKind,
  startTracing,
} from './telemetry/tracing.js';
export { withTraceContext } from './telemetry/tracing.js';
export { timeOrderedId } from './time-ordered-id.js';
export { backoffMs, type BackoffOptions } from './backoff.js';
export { errorCode } from './upstream/error-code.js';
export { withFailover, type FailoverOptions } from './upstream/failover.js';
export { Replicas } from './upstream/replicas.js';
export { Lease, type LeaseFields } from './lease.js';
export {
  inTransaction,
  type Session,
  type Transaction,
} from './transactions.js';
export {
  Outbox,
  type NewMessage,
  type OutboxMessage,
} from './outbox/outbox.js';
export {
  outboxRelay,
  type OutboxRelayOptions,
  type Sender,
} from './outbox/outbox-relay.js';
export {
  EVENTS_TOPIC,
  eventMessages,
  eventsSender,
  newEvent,
} from './outbox/event-messages.js';
export type { EventsSenderOptions } from './outbox/event-messages.js';
export {
  IdempotencyRepository,
  type IdempotencyRecord,
  type StoredResponse,
} from './idempotency/idempotency-repository.js';
export {
  REPLAYED_HEADER,
  refusalOf,
  requestHashOf,
  type KeyedRequest,
} from './idempotency/idempotency-record.js';
export {
  createIdempotency,
  keyedRequest,
  operationOf,
  type Executed,
  type Idempotency,
  type Sealing,
} from './idempotency/idempotent.js';
