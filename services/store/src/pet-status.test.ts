import { describe, expect, it } from 'vitest';
import { derivedStatus } from './pet-status.js';

describe('derivedStatus', () => {
  it('is available while any is in stock, open orders or not', () => {
    expect(derivedStatus(1, 0)).toBe('available');
    expect(derivedStatus(5, 3)).toBe('available');
  });

  it('is pending at zero stock while an order is open', () => {
    expect(derivedStatus(0, 1)).toBe('pending');
  });

  it('is sold at zero stock with no open order', () => {
    expect(derivedStatus(0, 0)).toBe('sold');
  });
});
