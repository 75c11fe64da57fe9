import { describe, expect, it } from 'vitest';
import { backoffMs } from './outbox-worker.js';

describe('backoffMs', () => {
  it('doubles from the base with each failure', () => {
    expect([0, 1, 2, 3].map((attempts) => backoffMs(attempts, 100, 5000))).toEqual([
      100, 200, 400, 800,
    ]);
  });

  it('stops at the cap, however many failures', () => {
    expect(backoffMs(6, 100, 5000)).toBe(5000);
    expect(backoffMs(1000, 100, 5000)).toBe(5000);
  });
});
