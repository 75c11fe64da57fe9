import { createService, type Logger } from '@petstore/service-kit';
import type Koa from 'koa';
import type { Db } from 'mongodb';
import type { Inventory } from './inventory/inventory.js';
import type { Orders } from './orders/orders.js';
import { createStoreRouter } from './routes.js';

export interface AppDeps {
  db: Db;
  logger: Logger;
  internalToken: string;
  orders: Orders;
  inventory: Inventory;
  /** Checks every response against the contract (on in tests). */
  validateResponses?: boolean;
}

/** The store's Koa app behind the gateway's token. Builds; never listens. */
export function createApp({
  db,
  logger,
  internalToken,
  validateResponses,
  ...useCases
}: AppDeps): Koa {
  return createService({
    name: 'store',
    logger,
    internalToken,
    routers: [createStoreRouter(useCases, { validateResponses }).routes()],
    readiness: { database: () => db.command({ ping: 1 }) },
  });
}
