import type { ApiPromise } from '../api-promise.js';
import { list, type List } from '../auto-pagination.js';
import { path } from '../path.js';
import type { RequestOptions, RequestSender } from '../request-sender.js';
import type {
  InventoryItem,
  InventoryUpdate,
  ListInventoryQuery,
  WithRequestId,
} from '../types.js';

/** The stock of each pet, which sets the pet's status. */
export class Inventory {
  constructor(private readonly sender: RequestSender) {}

  /**
   * List the inventory
   *
   * In pet id order; iterating reads every page.
   * @operationId listInventory
   */
  list(
    query?: ListInventoryQuery,
    options?: RequestOptions,
  ): List<InventoryItem> {
    return list(this.sender, { path: '/v2/store/inventory', query }, options);
  }

  /**
   * Get the stock of a pet
   *
   * A pet without stock yet is 404.
   * @operationId getInventoryItem
   */
  get(
    petId: number,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<InventoryItem>> {
    return this.sender.request(
      { method: 'GET', path: path`/v2/store/inventory/${petId}` },
      options,
    );
  }

  /**
   * Set the stock of a pet
   *
   * Creates or replaces the count; needs an admin key. An unknown pet is 422 `unknown_pet`.
   * @operationId setInventory
   */
  set(
    petId: number,
    body: InventoryUpdate,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<InventoryItem>> {
    const spec = {
      method: 'PUT',
      path: path`/v2/store/inventory/${petId}`,
      body,
    } as const;
    return this.sender.request(spec, options);
  }
}
