import {
  contract,
  contractOperations,
  internalContract,
  type ContractOperation,
  type DeprecationPolicy,
} from '@petstore/contract';
import { jsonBody } from '@petstore/service-kit';
import { addRoute, contractRouter } from '@petstore/ts-rest-koa';
import type { Router, RouterMiddleware } from '@koa/router';
import type { AppRoute } from '@ts-rest/core';
import type { Authenticator } from '../auth/authentication.js';
import type { ProxyOptions } from '../proxy/proxy-request.js';
import type { Upstreams } from '../proxy/upstreams.js';
import { inFlight } from '../rate-limits/in-flight.js';
import type { RateLimits } from '../rate-limits/rate-limits.js';
import {
  authenticate,
  deprecation,
  proxyTo,
  rateLimitPerAddress,
  rateLimitPerAccount,
  refuseBody,
  refuseEncoding,
  requireAdmin,
  type Step,
} from './request-steps.js';

export interface GatewayRouterOptions {
  /** When the deprecated operations were deprecated and stop, for the headers of every response. */
  deprecation: DeprecationPolicy;
  authenticator: Authenticator;
  rateLimits: RateLimits;
  /** Requests of one account at a time in this gateway. */
  maxInFlightPerAccount: number;
  upstreams: Upstreams;
  proxy: ProxyOptions;
  /** The gateway's own operations: ts-rest-koa's route middleware, which validates and handles. */
  ownRoutes: Map<AppRoute, RouterMiddleware>;
}

/** Every public operation, and the internal ones the gateway itself answers (`/internal/events`). */
function gatewayOperations(): ContractOperation[] {
  return [
    ...contractOperations(contract),
    ...contractOperations(internalContract).filter(
      ({ metadata }) => metadata.service === 'gateway',
    ),
  ];
}

/**
 * The gateway's one router: every operation it answers, proxied or its own, on one @koa/router
 * Router, each with its steps in order. An unknown path goes on (404 `route_not_found` further on);
 * a known path with another method is 405 with `Allow` (`OPTIONS`: 204), before authentication.
 */
export function gatewayRouter(options: GatewayRouterOptions): Router {
  const router = contractRouter();
  const steps = requestSteps(options);
  for (const operation of gatewayOperations()) addRoute(router, operation, steps(operation));
  return router;
}

/**
 * An operation's steps: its deprecation headers; for `auth: 'key'` the key (401), its account's
 * rate limit and requests in flight (429) and the role (403), for the versioned ones without a key the
 * client address's rate limit; a body where none belongs (400), an encoded body (415); then the
 * proxy for pets and store, or the JSON body and the gateway's own handler. Internal operations
 * were let in by the internal token (`internalOnly`).
 */
function requestSteps(options: GatewayRouterOptions) {
  const { authenticator, rateLimits, upstreams, proxy, ownRoutes } = options;
  const cachedKey = authenticate(authenticator, { fresh: false });
  // A key revoked through another gateway, still cached here, may not manage keys or messages.
  const freshKey = authenticate(authenticator, { fresh: true });
  const perAccount = rateLimitPerAccount(rateLimits, inFlight(options.maxInFlightPerAccount));
  const perAddress = rateLimitPerAddress(rateLimits);
  const proxies = {
    pets: proxyTo(upstreams.pets, proxy),
    store: proxyTo(upstreams.store, proxy),
  };
  const readJsonBody = jsonBody({ limitBytes: proxy.bodyLimitBytes });

  return ({ route, metadata, version }: ContractOperation): Step[] => {
    const serve = (): Step[] => {
      if (metadata.service !== 'gateway') return [proxies[metadata.service]];
      const own = ownRoutes.get(route);
      // Without a handler here (/health, /ready): service-kit's health middleware answers.
      return own ? [readJsonBody, own] : [];
    };
    if (metadata.auth === 'internal') return serve();
    const checks: Step[] =
      metadata.auth === 'key'
        ? [
            metadata.service === 'gateway' ? freshKey : cachedKey,
            perAccount,
            ...(metadata.role === 'admin' ? [requireAdmin] : []),
          ]
        : version === undefined
          ? []
          : [perAddress];
    return [
      ...(route.deprecated ? [deprecation(options.deprecation, metadata.successor ?? '')] : []),
      ...checks,
      refuseBody,
      refuseEncoding,
      ...serve(),
    ];
  };
}
