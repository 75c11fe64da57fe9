import { RequestSender, type ClientOptions } from './request-sender.js';
import { Accounts } from './resources/accounts.js';
import { Categories } from './resources/categories.js';
import { Inventory } from './resources/inventory.js';
import { Messages } from './resources/messages.js';
import { Orders } from './resources/orders.js';
import { Pets } from './resources/pets.js';
import { Webhooks } from './resources/webhooks.js';

/** The Petstore API, one property per resource. */
export interface PetstoreClient {
  readonly pets: Pets;
  readonly categories: Categories;
  readonly orders: Orders;
  readonly inventory: Inventory;
  readonly accounts: Accounts;
  readonly messages: Messages;
  readonly webhooks: Webhooks;
}

/** A client over one request sender; tests give a sender of their own. */
export function clientOver(sender: RequestSender): PetstoreClient {
  return {
    pets: new Pets(sender),
    categories: new Categories(sender),
    orders: new Orders(sender),
    inventory: new Inventory(sender),
    accounts: new Accounts(sender),
    messages: new Messages(sender),
    webhooks: new Webhooks(sender),
  };
}

/**
 * A client of the Petstore API.
 *
 * @example
 * const client = createClient({ apiKey: process.env.PETSTORE_API_KEY });
 * for await (const pet of client.pets.list({ status: 'available' })) console.log(pet.name);
 */
export function createClient(options: ClientOptions = {}): PetstoreClient {
  return clientOver(new RequestSender(options));
}
