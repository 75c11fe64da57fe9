import {
  contract,
  deprecationHeaders,
  generateOpenApi,
  getPetDocumentation,
  OpenApiDocumentSchema,
  RouteTable,
} from '@petstore/contract';
import { createService, type Logger } from '@petstore/service-kit';
import { createKoaRouter } from '@petstore/ts-rest-koa';
import type Koa from 'koa';
import type { Db } from 'mongodb';
import { AccountRepository } from './accounts/account-repository.js';
import { Authenticator } from './auth/authentication.js';
import type { Config } from './config.js';
import { apiIndex, apiIndexRoutes } from './docs/api-index.js';
import { docsAssets } from './docs/docs-page.js';
import { routeRequest } from './routing/route-request.js';
import { createKeyCache } from './auth/key-cache.js';
import { KeyUsage } from './auth/key-usage.js';
import { MessageRepository } from './messages/message-repository.js';
import { gatewayContract, gatewayRoutes } from './routes.js';
import { securityHeaders } from './routing/security-headers.js';
import { rateLimits } from './rate-limits/rate-limits.js';
import { createUpstreams, upstreamReady, type Upstreams } from './proxy/upstreams.js';
import { DeliveryLog } from './webhooks/delivery-log.js';
import { WebhookRepository } from './webhooks/webhook-repository.js';
import { EventRecorder } from './webhooks/event-recorder.js';
import { internalEventRoutes, internalOnly } from './webhooks/internal-event-routes.js';

/** JSON bodies up to 64 KiB, the gateway's own and those it streams to the services alike. */
const BODY_LIMIT_BYTES = 64 * 1024;
/** How long `/ready` waits for each part. */
const READINESS_TIMEOUT_MS = 1_000;

export interface AppDeps {
  db: Db;
  config: Config;
  logger: Logger;
  now?: () => Date;
  /** Connection pools to the services; made from `config.services` when absent. Closed by the caller. */
  upstreams?: Upstreams;
  /** Where key uses wait for their `lastUsedAt` write; its flushing is the caller's (startGateway's). */
  keyUsage?: KeyUsage;
  /** Called once a message is queued, e.g. to have the delivery worker deliver it. */
  onMessageQueued?: (id: string) => void;
  /**
   * Called once a webhook delivery is due now (events recorded, a retry), e.g. to wake the
   * delivery worker.
   */
  onWebhookDeliveryDue?: () => void;
  /** Check every answer of the gateway's own operations against the contract (tests). */
  validateResponses?: boolean;
}

/** The gateway's Koa app: built here, never listening (see `startGateway`). */
export function createApp({
  db,
  config,
  logger,
  now = () => new Date(),
  upstreams = createUpstreams(config),
  keyUsage,
  onMessageQueued = () => undefined,
  onWebhookDeliveryDue = () => undefined,
  validateResponses = false,
}: AppDeps): Koa {
  const accounts = new AccountRepository(db, now);
  const messages = new MessageRepository(db, now);
  const webhooks = new WebhookRepository(db, config.webhooks, now);
  const deliveryLog = new DeliveryLog(db, onWebhookDeliveryDue, now);
  const usage = keyUsage ?? new KeyUsage((uses) => accounts.recordKeyUses(uses), logger);
  const authenticator = new Authenticator(
    accounts,
    createKeyCache({ ttlMs: config.keys.cacheTtlMs, maxEntries: config.keys.cacheSize }),
    usage,
    now,
  );
  const openApiDocument = OpenApiDocumentSchema.parse(
    generateOpenApi(contract, { servers: [{ url: config.publicUrl }] }),
  );
  const ownRoutes = createKoaRouter(
    gatewayContract,
    gatewayRoutes({
      accounts,
      messages,
      webhooks,
      deliveryLog,
      authenticator,
      openApiDocument,
      publicUrl: config.publicUrl,
      onMessageQueued,
    }),
    { validateResponses },
  );

  const app = createService({
    name: 'gateway',
    logger,
    bodyLimitBytes: BODY_LIMIT_BYTES,
    readinessTimeoutMs: READINESS_TIMEOUT_MS,
    // Whether this gateway can serve is its own database; a service's blip must not take every
    // gateway out of rotation (`/ready?deep=true` asks the services too).
    readiness: { database: () => db.command({ ping: 1 }) },
    dependencies: {
      pets: () => upstreamReady(upstreams.pets, config.internalToken, READINESS_TIMEOUT_MS),
      store: () => upstreamReady(upstreams.store, config.internalToken, READINESS_TIMEOUT_MS),
    },
    beforeBody: [
      securityHeaders({ https: config.publicUrl.startsWith('https:') }),
      routeRequest({
        routes: new RouteTable(contract),
        deprecation: deprecationHeaders({
          ...config.getPetDeprecation,
          documentation: getPetDocumentation,
        }),
        authenticator,
        rateLimits: rateLimits(
          {
            policy: config.rateLimit.policy,
            perKey: config.rateLimit.perKey,
            perAddress: config.rateLimit.signup,
          },
          db,
        ),
        upstreams,
        proxy: {
          internalToken: config.internalToken,
          timeoutMs: config.upstream.timeoutMs,
          bodyLimitBytes: BODY_LIMIT_BYTES,
        },
      }),
      internalOnly(config.internalToken),
    ],
    routers: [
      docsAssets(),
      apiIndexRoutes(apiIndex(openApiDocument, config.publicUrl)),
      ownRoutes.routes(),
      internalEventRoutes(new EventRecorder(db, onWebhookDeliveryDue, now)),
    ],
  });
  app.proxy = config.trustedProxyHops > 0;
  app.maxIpsCount = config.trustedProxyHops;
  return app;
}
