import {
  contract,
  generateOpenApi,
  getPetDocumentation,
  OpenApiDocumentSchema,
} from '@petstore/contract';
import { createService, refuseBodyWhereNone } from '@petstore/service-kit';
import { routeHandlers } from '@petstore/ts-rest-koa';
import type Koa from 'koa';
import type { buildGateway } from './start.js';
import { corsForOrigins } from './cors/cors.js';
import { docsPages } from './docs/docs-page.js';
import { proxyOrHandle } from './proxy/proxy-request.js';
import { upstreamReady } from './proxy/upstreams.js';
import { rateLimit } from './rate-limits/rate-limits.js';
import { gatewayContract, gatewayRoutes } from './routes.js';
import {
  authenticate,
  authorize,
  deprecation,
  gatewayRouter,
  refuseEncoding,
  refuseTooManyHeaders,
  resolveRoute,
  securityHeaders,
} from './routing/gateway-router.js';
import {
  internalEventRoutes,
  internalEventsContract,
  internalOnly,
} from './webhooks/internal-event-routes.js';

/** JSON bodies up to 64 KiB, the gateway's own and those it streams to the services alike. */
const BODY_LIMIT_BYTES = 64 * 1024;
const READINESS_TIMEOUT_MS = 1_000;

export type AppDeps = ReturnType<typeof buildGateway>['deps'] & {
  /** Check every response of the gateway's own operations against the contract (tests). */
  validateResponses?: boolean;
};

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
