import {
  contract,
  generateOpenApi,
  getPetDocumentation,
  OpenApiDocumentSchema,
} from '@petstore/contract';
import {
  createIdempotency,
  createService,
  IdempotencyRepository,
  inTransaction,
  refuseBodyWhereNone,
  type Logger,
  type Session,
} from '@petstore/service-kit';
import { routeHandlers } from '@petstore/ts-rest-koa';
import type Koa from 'koa';
import type { Db, MongoClient } from 'mongodb';
import { Accounts } from './accounts/accounts.js';
import {
  Authenticator,
  createKeyCache,
  KeyUsage,
} from './auth/authentication.js';
import type { Config } from './config.js';
import { corsForOrigins } from './cors/cors.js';
import { docsPages } from './docs/docs-page.js';
import { MessageRepository } from './messages/message-repository.js';
import { logDelivery, messageWorker } from './messages/message-worker.js';
import { createUpstreams, upstreamReady } from './proxy/upstreams.js';
import { rateLimits } from './rate-limits/rate-limits.js';
import { gatewayContract, gatewayRoutes } from './routes.js';
import {
  authenticate,
  authorize,
  deprecation,
  gatewayRouter,
  proxyOrHandle,
  rateLimit,
  refuseEncoding,
  refuseTooManyHeaders,
  resolveRoute,
  securityHeaders,
} from './routing/gateway-router.js';
import { DeliveryRepository } from './webhooks/delivery-repository.js';
import { deliveryWorker } from './webhooks/delivery-worker.js';
import { EventRecorder } from './webhooks/event-recorder.js';
import {
  internalEventRoutes,
  internalEventsContract,
  internalOnly,
} from './webhooks/internal-event-routes.js';

import { WebhookRepository } from './webhooks/webhook-repository.js';
import { createWebhooks } from './webhooks/webhooks.js';
import { sealSecret, unsealSecret } from './webhooks/webhook-secret.js';

/** JSON bodies up to 64 KiB, the gateway's own and those it streams to the services alike. */
const BODY_LIMIT_BYTES = 64 * 1024;
const READINESS_TIMEOUT_MS = 1_000;

export type AppDeps = ReturnType<typeof buildGateway>['deps'] & {
  /** Check every response of the gateway's own operations against the contract (tests). */
  validateResponses?: boolean;
};

/** Everything the gateway is made of, on its database: the app's parts and its background work. */
export function buildGateway(
  client: MongoClient,
  db: Db,
  config: Config,
  logger: Logger,
) {
  const accounts = new Accounts(db);
  const { cacheTtlMs: ttlMs, cacheSize: maxEntries } = config.keys;
  const keyUsage = new KeyUsage((uses) => accounts.recordKeyUses(uses), logger);
  const messages = new MessageRepository(db);
  const deliveries = new DeliveryRepository(db, config.webhooks.retentionMs);
  const webhookDeliveries = deliveryWorker(deliveries, config.webhooks, logger);
  const recorder = new EventRecorder(db, (webhookIds) => {
    webhookDeliveries.wake(webhookIds);
  });
  const deliver = logDelivery(logger);
  const transaction = <T>(work: (session: Session) => Promise<T>) =>
    inTransaction(client, work);
  // Created keys and webhook secrets are shown again to a retry: records keep them sealed.
  const { secretsKey } = config.webhooks;
  const idempotency = createIdempotency(
    new IdempotencyRepository(db),
    transaction,
    {
      seal: (text) => sealSecret(text, secretsKey),
      open: (sealed) => unsealSecret(sealed, secretsKey),
    },
  );
  const messageDeliveries = messageWorker({
    messages,
    recorder,
    transaction,
    deliver,
    logger,
    ...config.messages,
  });
  const deps = {
    db,
    config,
    logger,
    accounts,
    messages,
    deliveries,
    idempotency,
    recorder,
    webhooks: createWebhooks({
      webhooks: new WebhookRepository(db),
      deliveries,
      policy: config.webhooks,
    }),
    authenticator: new Authenticator(
      accounts,
      createKeyCache({ ttlMs, maxEntries }),
      keyUsage,
    ),
    rateLimits: rateLimits(db, config.rateLimit),
    upstreams: createUpstreams(config.services, config.upstream.timeoutMs),
    onMessageQueued: (id: string) => {
      messageDeliveries.queued(id);
    },
    onWebhookDeliveryDue: () => {
      webhookDeliveries.kick();
    },
  };
  // Stopped last first: the messages, then the webhooks.
  return { deps, keyUsage, workers: [webhookDeliveries, messageDeliveries] };
}

/** The gateway's Koa app, wired from what `startGateway` built; it never listens. */
export function createApp({
  db,
  config,
  logger,
  validateResponses,
  ...deps
}: AppDeps): Koa {
  const { authenticator, rateLimits, upstreams, recorder } = deps;
  const { internalToken, publicUrl } = config;
  const openApiDocument = OpenApiDocumentSchema.parse(
    generateOpenApi(contract, { servers: [{ url: publicUrl }] }),
  );
  const ownRoutes = new Map([
    ...routeHandlers(
      gatewayContract,
      gatewayRoutes({ ...deps, openApiDocument, publicUrl }),
      {
        validateResponses,
      },
    ),
    ...routeHandlers(internalEventsContract, internalEventRoutes(recorder), {
      validateResponses,
    }),
  ]);
  const app = createService({
    name: 'gateway',
    logger,
    bodyLimitBytes: BODY_LIMIT_BYTES,
    readinessTimeoutMs: READINESS_TIMEOUT_MS,
    // A service's blip must not take every gateway out of rotation: only `?deep=true` asks them.
    readiness: { database: () => db.command({ ping: 1 }) },
    dependencies: {
      pets: () =>
        upstreamReady(upstreams.pets, internalToken, READINESS_TIMEOUT_MS),
      store: () =>
        upstreamReady(upstreams.store, internalToken, READINESS_TIMEOUT_MS),
    },
    // After service-kit's serverTelemetry, requestId, requestLogging, errorMiddleware, requireHost:
    beforeBody: [
      // First: every answer to an allowed origin, errors included, carries its headers, and a
      // preflight is answered here, before authentication and before the router's own OPTIONS.
      ...corsForOrigins(config.corsOrigins),
      securityHeaders({ https: publicUrl.startsWith('https:') }),
      refuseTooManyHeaders,
      // Any `/internal/…` path is 401 without the token, known or not.
      internalOnly(internalToken),
      resolveRoute(gatewayRouter()),
      deprecation({
        ...config.getPetDeprecation,
        documentation: getPetDocumentation,
      }),
      authenticate(authenticator),
      rateLimit({
        rateLimits,
        maxInFlightPerAccount: config.maxInFlightPerAccount,
      }),
      authorize,
      refuseBodyWhereNone(),
      refuseEncoding,
      proxyOrHandle({
        upstreams,
        proxy: {
          ...config.upstream,
          internalToken,
          bodyLimitBytes: BODY_LIMIT_BYTES,
        },
        ownRoutes,
      }),
    ],
    // Not operations of the contract: the reference page's scripts and the API's index.
    routers: [docsPages(openApiDocument, publicUrl)],
  });
  app.proxy = config.trustedProxyHops > 0;
  app.maxIpsCount = config.trustedProxyHops;
  return app;
}
