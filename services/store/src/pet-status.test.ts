import { describe, expect, it } from 'vitest';
import { derivedStatus } from './pet-status.js';

describe('derivedStatus', () => {
  it('is available while any is in stock, open orders or not', () => {
    expect(derivedStatus({ quantity: 1, openOrders: 0 })).toBe('available');
    expect(derivedStatus({ quantity: 5, openOrders: 3 })).toBe('available');
  });

  it('is pending at zero stock while an order is open', () => {
    expect(derivedStatus({ quantity: 0, openOrders: 1 })).toBe('pending');
  });

  it('is sold at zero stock with no open order', () => {
    expect(derivedStatus({ quantity: 0, openOrders: 0 })).toBe('sold');
  });
});
