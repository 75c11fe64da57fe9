import './request-id.js';

export { AppError, toAppError } from './app-error.js';
export { batched } from './batched.js';
export {
  envHttpUrls,
  envInstant,
  envInteger,
  envOptionalHttpUrl,
  eventsConfigOf,
  eventsEnv,
  loadConfig,
  loadOrExit,
  serviceConfig,
  serviceEnv,
  unsetWhenEmpty,
  type Env,
} from './config.js';
export {
  createService,
  refuseBodyWhereNone,
  type RouterMiddleware,
} from './create-service.js';
export { hasBody, jsonBody, readBody } from './json-body.js';
export { createLogger, type Logger, type LogLevel } from './logger.js';
export { connectMongo, isDuplicateKey } from './mongo.js';
export { decodeCursor, encodeCursor, findPage, pageOf } from './pagination.js';
export type { IdPage, TimePage } from './pagination.js';
export { nextSequenceValue, SequenceBlocks } from './sequences.js';
export {
  startService,
  type StartedService,
  type StartOptions,
} from './run-service.js';
export {
  callerOf,
  internalHeaders,
  requireAdmin,
  requireCaller,
  setCaller,
  trustGateway,
  type Caller,
} from './trust-gateway.js';
export { Worker } from './worker.js';
export {
  contextFrom,
  currentTraceparent,
  databaseGauge,
  inSpan,
  rateLimitRejections,
  registry,
  SpanKind,
  startTracing,
  upstreamErrors,
  withTraceContext,
} from './telemetry/telemetry.js';
export { timeOrderedId } from './time-ordered-id.js';
export { errorCode, withFailover } from './upstream/failover.js';
export { Replicas } from './upstream/replicas.js';
export { Lease } from './lease.js';
export {
  inTransaction,
  type Session,
  type Transaction,
} from './transactions.js';
export {
  Outbox,
  outboxRelay,
  type NewMessage,
  type OutboxMessage,
  type Sender,
} from './outbox/outbox.js';
export {
  EVENTS_TOPIC,
  eventMessages,
  eventsSender,
  newEvent,
} from './outbox/event-messages.js';
export {
  IdempotencyRepository,
  REPLAYED_HEADER,
  requestHashOf,
  type IdempotencyRecord,
  type KeyedRequest,
  type StoredResponse,
} from './idempotency/idempotency-repository.js';
export {
  createIdempotency,
  keyedRequest,
  operationOf,
  refusalOf,
  type Executed,
  type Idempotency,
} from './idempotency/idempotent.js';
