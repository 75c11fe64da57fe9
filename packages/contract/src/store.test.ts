import { describe, expect, it } from 'vitest';
import {
  InventoryItemSchema,
  InventoryUpdateSchema,
  ListOrdersQuerySchema,
  NewOrderSchema,
  OrderSchema,
  OrderUpdateSchema,
} from './store.js';

describe('order schemas', () => {
  it('accepts an order with no field at all, as the seed defines it', () => {
    expect(OrderSchema.parse({})).toEqual({});
  });

  it('accepts a new order with a quantity of 1 and a ship date with an offset', () => {
    for (const shipDate of [
      '2026-12-01T12:00:00+02:00',
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
    ]) {
      const order = { petId: 1, quantity: 1, shipDate };
      expect(NewOrderSchema.parse(order)).toEqual(order);
    }
  });

  it.each([[0], [-1], [1.5], ['1'], [1_000_001]])(
    'rejects the quantity %j',
    (quantity) => {
      expect(NewOrderSchema.safeParse({ petId: 1, quantity }).success).toBe(
        false,
      );
    },
  );

  it('rejects a ship date that is not an ISO 8601 instant within the years 0000–9999 in UTC', () => {
    const outOfRange = [
      '0000-01-01T00:00:00+14:00',
      '9999-12-31T23:59:59-01:00',
    ];
    for (const shipDate of [
      'tomorrow',
      '2026-12-01',
      '2026-02-30T10:00:00Z',
      ...outOfRange,
    ]) {
      expect(
        NewOrderSchema.safeParse({ petId: 1, quantity: 1, shipDate }).success,
      ).toBe(false);
    }
  });

  it('only ever completes an order, never reopens one', () => {
    expect(OrderUpdateSchema.parse({ complete: true })).toEqual({
      complete: true,
    });
    expect(OrderUpdateSchema.safeParse({ complete: false }).success).toBe(
      false,
    );
  });

  it('reads complete=true/false as a boolean and nothing else', () => {
    expect(
      ListOrdersQuerySchema.parse({ complete: 'false', petId: '2' }),
    ).toEqual({
      complete: false,
      petId: 2n,
      limit: 20,
    });
    expect(ListOrdersQuerySchema.parse({ complete: 'true' }).complete).toBe(
      true,
    );
    expect(ListOrdersQuerySchema.safeParse({ complete: '1' }).success).toBe(
      false,
    );
  });
});

describe('inventory schemas', () => {
  it('sets a stock of at most 1000000, and shows one above it that cancelled orders gave back', () => {
    expect(
      InventoryUpdateSchema.safeParse({ quantity: 1_000_001 }).success,
    ).toBe(false);
    const item = { petId: 1, quantity: 1_000_005, status: 'available' };
    expect(InventoryItemSchema.parse(item)).toEqual(item);
  });
});
