import { storedId, type InventoryItem } from '@petstore/contract';
import {
  AppError,
  requireAdmin,
  type Outbox,
  type Transaction,
} from '@petstore/service-kit';
import { stockMessages } from '../events.js';
import { derivedStatus, type Stock } from '../pet-status.js';
import type { PetCheck } from '../pets-service/pets-adapter.js';
import type { RequestScope } from '../request-scope.js';
import type {
  InventoryRepository,
  StockPage,
} from '../repositories/inventory-repository.js';

export interface InventoryDeps {
  inventory: InventoryRepository;
  outbox: Outbox;
  petCheck: PetCheck;
  transaction: Transaction;
}

export type Inventory = ReturnType<typeof createInventory>;

function toItem(stock: Stock): InventoryItem {
  return {
    petId: stock.petId,
    quantity: stock.quantity,
    status: derivedStatus(stock),
  };
}

export function createInventory({
  inventory,
  outbox,
  petCheck,
  transaction,
}: InventoryDeps) {
  return {
    async list(page: StockPage) {
      return (await inventory.list(page)).map(toItem);
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
