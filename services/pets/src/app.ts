import {
  deprecationHeaders,
  getPetDocumentation,
  successorPath,
  toOpenApiPath,
} from '@petstore/contract';
import type { ContractOperation, DeprecationPolicy } from '@petstore/contract';
import {
  AppError,
  createService,
  requireAdmin,
  requireCaller,
} from '@petstore/service-kit';
import type { Logger } from '@petstore/service-kit';
import { createKoaRouter } from '@petstore/ts-rest-koa';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import type { Db } from 'mongodb';
import type { PetsConfig } from './config.js';
import { petsServiceContract, routes, type RoutesDeps } from './routes.js';

export interface AppDeps extends RoutesDeps {
  db: Db;
  config: PetsConfig;
  logger: Logger;
  /** The clock the sunset of the deprecated operation is read against. */
  now?: () => Date;
  /** Check every response against the contract (tests and development). */
  validateResponses?: boolean;
}

export function createApp({
  db,
  config,
  logger,
  now = () => new Date(),
  validateResponses = false,
  ...deps
}: AppDeps): Koa {
  const deprecation = {
    ...config.getPetDeprecation,
    documentation: getPetDocumentation,
  };
  return createService({
    name: 'pets',
    logger,
    internalToken: config.internalToken,
    readiness: { database: () => db.command({ ping: 1 }) },
    routers: [
      createKoaRouter(petsServiceContract, routes(deps), {
        validateResponses,
        before: operationPolicies(deprecation, now),
      }).routes(),
    ],
  });
}

/**
 * What the contract says of an operation beyond its shapes, as route middleware that runs before
 * the request is validated so that its validation errors obey it too: a deprecated operation marks
 * every response, its successor (the same request in the current version) included, and from its
 * sunset on answers 410 `gone` naming it; `role: 'admin'` needs an admin (the gateway checks first).
 */
function operationPolicies(policy: DeprecationPolicy, now: () => Date) {
  return ({ route, metadata }: ContractOperation): Middleware[] => {
    const successor = metadata.successor ?? '';
    const deprecated: Middleware = async function deprecated(ctx, next) {
      const params = (ctx as { params?: Record<string, string> }).params ?? {};
      const headers = deprecationHeaders(
        policy,
        successorPath(successor, params),
      );
      ctx.set(headers);
      if (now().getTime() >= policy.sunsetAt.getTime()) {
        throw new AppError(
          'gone',
          `[pets] ${route.method} ${toOpenApiPath(route.path)} was retired on ${policy.sunsetAt.toISOString()}; use its successor, ${route.method} ${toOpenApiPath(successor)}`,
          { headers },
        );
      }
      await next();
    };
    // `Add a pet`: only an admin may add a pet.
    const action = (route.summary ?? '').replace(/^./, (first) =>
      first.toLowerCase(),
    );
    const adminOnly: Middleware = async function adminOnly(ctx, next) {
      requireAdmin(requireCaller(ctx), action);
      await next();
    };
    return [
      ...(route.deprecated === true ? [deprecated] : []),
      ...(metadata.role === 'admin' ? [adminOnly] : []),
    ];
  };
}
