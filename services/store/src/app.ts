import { createService, type Logger } from '@petstore/service-kit';
import type Koa from 'koa';
import type { Db } from 'mongodb';
import { createStoreRouter, type UseCases } from './routes.js';

export interface AppDeps extends UseCases {
  db: Db;
  logger: Logger;
  internalToken: string;
  validateResponses?: boolean;
}

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
    routers: [createStoreRouter(useCases, validateResponses).routes()],
    readiness: { database: () => db.command({ ping: 1 }) },
  });
}
