import { initContract } from '@ts-rest/core';
import { accounts } from './accounts.js';
import {
  currentVersionOf,
  previousVersionOf,
  type VersionedRouter,
} from './versions.js';
import { categories } from './categories.js';
import { internalEvents, internalPets } from './internal.js';
import { messages } from './messages.js';
import { meta } from './meta.js';
import { pets } from './pets.js';
import { inventory, orders } from './store.js';
import { webhooks } from './webhooks.js';

const c = initContract();

/** Every operation of the public API, once, at its path within a version (`GET /pets/:petId`). */
const operations = {
  pets,
  categories,
  orders,
  inventory,
  accounts,
  messages,
  webhooks,
};
type Operations = typeof operations;

const metaRoutes = c.router(meta, { strictStatusCodes: true });

/**
 * The public API, as the gateway serves it: both versions, derived from the one definition, then
 * the meta endpoints at the root. A response type is exactly the declared statuses.
 */
export const contract: {
  v2: VersionedRouter<Operations, '/v2', true>;
  v1: VersionedRouter<Operations, '/v1', false>;
  meta: typeof metaRoutes;
} = {
  v2: currentVersionOf(operations),
  v1: previousVersionOf(operations),
  meta: metaRoutes,
};
export type Contract = typeof contract;

/** Service-to-service operations: never routed by the gateway, never in the document. */
export const internalContract = c.router(
  { pets: internalPets, events: internalEvents },
  { strictStatusCodes: true },
);
