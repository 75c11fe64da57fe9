import { initContract } from '@ts-rest/core';
import { accounts } from './accounts.js';
import { categories } from './categories.js';
import { internalEvents, internalPets } from './internal.js';
import { messages } from './messages.js';
import { meta } from './meta.js';
import { pets } from './pets.js';
import { inventory, orders } from './store.js';
import { webhooks } from './webhooks.js';

const c = initContract();

/** The version of the public API: `info.version` of the document and the `API-Version` header. */
export const apiVersion = '1.0.0';

/** The public API, as the gateway serves it; a response type is exactly the declared statuses. */
export const contract = c.router(
  { pets, categories, orders, inventory, accounts, messages, webhooks, meta },
  { strictStatusCodes: true },
);
export type Contract = typeof contract;

/** Service-to-service operations: never routed by the gateway, never in the document. */
export const internalContract = c.router(
  { pets: internalPets, events: internalEvents },
  { strictStatusCodes: true },
);
export type InternalContract = typeof internalContract;
