import { contract, getPetDocumentation } from '@petstore/contract';
import { createService, type Logger } from '@petstore/service-kit';
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
      deprecatedRoute(contract.pets.getPet, deprecation, now),
      createKoaRouter(petsServiceContract, routes(deps), { validateResponses }).routes(),
    ],
  });
}
