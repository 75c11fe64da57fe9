import type { PetStatus } from '@petstore/contract';

export type Stock = {
  petId: number;
  quantity: number;
  openOrders: number;
  version: number;
};

export type StockChange = { before?: Stock; after: Stock };

/** API.md, "Pet status": available while in stock; at zero, pending while an order is open. */
export function derivedStatus(
  stock: Pick<Stock, 'quantity' | 'openOrders'>,
): PetStatus {
  if (stock.quantity > 0) return 'available';
  return stock.openOrders > 0 ? 'pending' : 'sold';
}

/** The stock `derivedStatus` gives each status, as a query. */
export const stockOfStatus = {
  available: { quantity: { $gt: 0 } },
  pending: { quantity: { $lte: 0 }, openOrders: { $gt: 0 } },
  sold: { quantity: { $lte: 0 }, openOrders: { $lte: 0 } },
} as const;

/** A new entry always moves the status: the store takes it over from the pet's admin. */
export function statusMoved({ before, after }: StockChange): boolean {
  return before === undefined || derivedStatus(before) !== derivedStatus(after);
}
