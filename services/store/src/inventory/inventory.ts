import {
  storedId,
  type InventoryItem,
  type PetStatus,
} from '@petstore/contract';
import {
  AppError,
  requireAdmin,
  type Outbox,
  type Transaction,
} from '@petstore/service-kit';
import { stockMessages } from '../events.js';
import { derivedStatus, type Stock } from '../pet-status.js';
import type { PetCheck } from '../pets-service/pet-check.js';
import type { RequestScope } from '../request-scope.js';
import type { InventoryRepository } from '../repositories/inventory-repository.js';

export interface InventoryDeps {
  inventory: InventoryRepository;
  outbox: Outbox;
  petCheck: PetCheck;
  transaction: Transaction;
}

export type Inventory = ReturnType<typeof createInventory>;

const SCAN_BATCH = 100;

function toItem(stock: Stock): InventoryItem {
  return {
    petId: stock.petId,
    quantity: stock.quantity,
    status: derivedStatus(stock),
  };
}

/** Whether stock entries of the wanted statuses have stock (`true`), have none, or either. */
function inStockFilter(wanted: Set<PetStatus>): boolean | undefined {
  if (!wanted.has('available')) return false;
  if (wanted.size === 1) return true;
  return undefined;
}

export function createInventory({
  inventory,
  outbox,
  petCheck,
  transaction,
}: InventoryDeps) {
  return {
    // The status is derived, not stored: a status filter reads batches until the page is full.
    async list(filter: {
      statuses?: PetStatus[];
      after: number;
      limit: number;
    }) {
      const { statuses = ['available', 'pending', 'sold'], limit } = filter;
      const wanted = new Set(statuses);
      const inStock = inStockFilter(wanted);
      const batchSize = wanted.size === 3 ? limit : Math.max(limit, SCAN_BATCH);
      const page: InventoryItem[] = [];
      for (let after = filter.after; ;) {
        const stocks = await inventory.list({
          after,
          limit: batchSize,
          inStock,
        });
        for (const item of stocks.map(toItem)) {
          if (wanted.has(item.status)) page.push(item);
          if (page.length === limit) return page;
        }
        const last = stocks.at(-1);
        if (!last || stocks.length < batchSize) return page;
        after = last.petId;
      }
    },

    async get(petId: bigint): Promise<InventoryItem> {
      const stock = await inventory.find(storedId(petId));
      if (!stock)
        throw new AppError('not_found', `pet ${petId} has no stock yet`);
      return toItem(stock);
    },

    async set(
      id: bigint,
      quantity: number,
      { caller, requestId }: RequestScope,
    ) {
      requireAdmin(caller, 'set the stock');
      await petCheck(id, requestId);
      // The pet exists, so its id was issued and is exact as a number.
      const petId = storedId(id);
      const change = await transaction(async (session) => {
        const changed = await inventory.set(petId, quantity, session);
        await outbox.add(session, stockMessages(changed, { updated: true }));
        return changed;
      });
      return toItem(change.after);
    },
  };
}
