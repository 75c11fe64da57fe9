import type { PetStatus } from '@petstore/contract';
import type { StockChange } from './inventory-repository.js';

/**
 * The status stock gives a pet (API.md, "Pet status"): available while any is in stock; at zero,
 * pending while an order is still open (incomplete, not cancelled), else sold.
 */
export function derivedStatus(quantity: number, openOrders: number): PetStatus {
  if (quantity > 0) return 'available';
  return openOrders > 0 ? 'pending' : 'sold';
}

/** Whether a stock change moved the pet's status (a new entry always does: the store takes over). */
export function statusMoved({ before, after }: StockChange): boolean {
  return (
    before === undefined ||
    derivedStatus(before.quantity, before.openOrders) !==
      derivedStatus(after.quantity, after.openOrders)
  );
}
