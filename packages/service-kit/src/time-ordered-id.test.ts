import { describe, expect, it } from 'vitest';
import { timeOrderedId } from './time-ordered-id.js';

describe('timeOrderedId', () => {
  it('is the prefix and 32 hex digits, the first 12 the time in milliseconds', () => {
    const before = Date.now();
    const id = timeOrderedId('evt');
    expect(id).toMatch(/^evt_[0-9a-f]{32}$/);
    const time = parseInt(id.slice(4, 16), 16);
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(Date.now());
  });

  it('sorts in the order the ids were made, within a millisecond too', () => {
    const ids = Array.from({ length: 10_000 }, () => timeOrderedId('msg'));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
