import type { PetStatus } from '@petstore/contract';

/**
 * The status stock gives a pet (API.md, "Pet status"): available while any is in stock; at zero,
 * pending while an order is still open (incomplete, not cancelled), else sold.
 */
export function derivedStatus(quantity: number, openOrders: number): PetStatus {
  if (quantity > 0) return 'available';
  return openOrders > 0 ? 'pending' : 'sold';
}
