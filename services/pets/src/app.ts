import { contract, getPetDocumentation, RouteTable } from '@petstore/contract';
import { createService, requireAdmin, requireCaller, type Logger } from '@petstore/service-kit';
import { createKoaRouter } from '@petstore/ts-rest-koa';
import type Koa from 'koa';
import type { Db } from 'mongodb';
import type { PetsConfig } from './config.js';
import { deprecatedRoute } from './deprecation.js';
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
  const deprecation = { ...config.getPetDeprecation, documentation: getPetDocumentation };
  return createService({
    name: 'pets',
    logger,
    internalToken: config.internalToken,
    readiness: { database: () => db.command({ ping: 1 }) },
    routers: [
      adminOnly(new RouteTable(petsServiceContract)),
      deprecatedRoute(contract.pets.getPet, deprecation, now),
      createKoaRouter(petsServiceContract, routes(deps), { validateResponses }).routes(),
    ],
  });
}

/** Only admins may call what the contract gives `role: 'admin'`: the gateway checks, then this. */
function adminOnly(table: RouteTable): Koa.Middleware {
  return async (ctx, next) => {
    const resolution = table.resolve(ctx.method, ctx.path);
    if (resolution.kind === 'operation' && resolution.operation.metadata.role === 'admin') {
      // `Add a pet`: only an admin may add a pet.
      const { summary = '' } = resolution.operation.route;
      requireAdmin(requireCaller(ctx), summary.charAt(0).toLowerCase() + summary.slice(1));
    }
    await next();
  };
}
