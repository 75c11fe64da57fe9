import { contract, getPetDocumentation } from '@petstore/contract';
import { afterWrites, createService, type Logger } from '@petstore/service-kit';
import { createKoaRouter } from '@petstore/ts-rest-koa';
import type Koa from 'koa';
import type { Db } from 'mongodb';
import { CategoriesRepository } from './categories-repository.js';
import type { PetsConfig } from './config.js';
import { deprecatedRoute } from './deprecation.js';
import type { PetEvents } from './events.js';
import { PetsRepository } from './pets-repository.js';
import { petsServiceContract, routes } from './routes.js';

export interface AppDeps {
  db: Db;
  config: PetsConfig;
  logger: Logger;
  /** The events pets carry and how they reach the gateway: a deleted pet hands its own over. */
  events: PetEvents;
  /** The clock the sunset of the deprecated operation is read against. */
  now?: () => Date;
  /** Check every answer against the contract (tests and development). */
  validateResponses?: boolean;
  /** Called after every write that succeeded (each may record events), to hand them over promptly. */
  wakeEventRelay?: () => void;
}

/** The pets service as a Koa app; it never listens. */
export function createApp({
  db,
  config,
  logger,
  events,
  now = () => new Date(),
  validateResponses = false,
  wakeEventRelay = () => {},
}: AppDeps): Koa {
  const repositories = {
    pets: new PetsRepository(db, events),
    categories: new CategoriesRepository(db),
  };
  const router = createKoaRouter(petsServiceContract, routes(repositories), {
    validateResponses,
  });
  return createService({
    name: 'pets',
    logger,
    internalToken: config.internalToken,
    readiness: { database: () => db.command({ ping: 1 }) },
    routers: [
      afterWrites(wakeEventRelay),
      deprecatedRoute(
        contract.pets.getPet,
        { ...config.getPetDeprecation, documentation: getPetDocumentation },
        now,
      ),
      router.routes(),
    ],
  });
}
