// Inventory: the stock of each pet, the status that stock gives it, and the stock orders hold.
import { storedId, type InventoryItem, type PetStatus } from '@petstore/contract';
import { AppError, type Caller } from '@petstore/service-kit';
import type { StatusChanges } from '../outbox/status-changes.js';
import type { PetCheck } from '../pets-service/pet-check.js';
import type { Repository } from '../repository.js';
import type { RequestScope } from '../request-scope.js';
import { requireAdmin } from '../require-admin.js';
import type { Stock } from './inventory-repository.js';
import { derivedStatus, statusMoved } from './pet-status.js';

export interface InventoryDeps {
  repository: Repository;
  petCheck: PetCheck;
  statusChanges: StatusChanges;
  now: () => Date;
}

export interface InventoryFilter {
  /** Only items in one of these statuses; every item without it. */
  statuses?: PetStatus[];
  /** The pet id the page continues after. */
  after: number;
  /** How many items to return at most. */
  limit: number;
}

export type Inventory = ReturnType<typeof createInventory>;

/** How many stock entries one look at the collection takes while filtering by status. */
const SCAN_BATCH = 100;

export function createInventory({ repository, petCheck, statusChanges, now }: InventoryDeps) {
  const { inventory } = repository;

  /** An entry as the API shows it, its status derived from its own stock and open orders. */
  function toItem({ petId, quantity, openOrders }: Stock): InventoryItem {
    return { petId, quantity, status: derivedStatus(quantity, openOrders) };
  }

  return {
    /**
     * Up to `limit` items after `after`, in pet id order. The status is derived, not stored, so a
     * status filter reads the collection in batches until the page is full; a filter of only
     * `available` (or none of it) narrows the query by quantity first.
     */
    async list({ statuses, after, limit }: InventoryFilter): Promise<InventoryItem[]> {
      const wanted = new Set<PetStatus>(statuses ?? ['available', 'pending', 'sold']);
      const inStock =
        wanted.has('available') && wanted.size === 1
          ? true
          : wanted.has('available')
            ? undefined
            : false;
      const everything = wanted.size === 3;
      const page: InventoryItem[] = [];
      let cursor = after;
      for (;;) {
        const batchSize = everything ? limit : Math.max(limit, SCAN_BATCH);
        const stocks = await inventory.list({ inStock, after: cursor, limit: batchSize });
        for (const item of stocks.map(toItem)) {
          if (wanted.has(item.status)) page.push(item);
          if (page.length === limit) return page;
        }
        const last = stocks.at(-1);
        if (!last || stocks.length < batchSize) return page;
        cursor = last.petId;
      }
    },

    async get(petId: bigint): Promise<InventoryItem> {
      const stock = await inventory.find(storedId(petId));
      if (!stock) throw new AppError('not_found', `pet ${petId} has no stock yet`);
      return toItem(stock);
    },

    /** Creates or replaces the stock count of an existing pet (admin), which sets its status. */
    async set(
      caller: Caller,
      id: bigint,
      quantity: number,
      request: RequestScope,
    ): Promise<InventoryItem> {
      requireAdmin(caller);
      await petCheck(id, request);
      // The pet exists, so its id was issued and is exact as a number.
      const petId = storedId(id);
      const change = await inventory.set(petId, quantity, now());
      if (statusMoved(change)) await statusChanges.changed(petId, request.logger);
      return toItem(change.after);
    },
  };
}
