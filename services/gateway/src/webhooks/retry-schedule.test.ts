import { describe, expect, it } from 'vitest';
import { nextAttemptAt } from './delivery-worker.js';

const now = new Date('2026-01-01T00:00:00Z');
const delays = [1_000, 60_000];

describe('nextAttemptAt', () => {
  it('waits the delay for the attempts made so far, moved by at most a fifth either way', () => {
    expect(nextAttemptAt(1, delays, now, () => 0.5)).toEqual(
      new Date(now.getTime() + 1_000),
    );
    expect(nextAttemptAt(1, delays, now, () => 0)).toEqual(
      new Date(now.getTime() + 800),
    );
    expect(nextAttemptAt(2, delays, now, () => 1)).toEqual(
      new Date(now.getTime() + 72_000),
    );
  });

  it('gives up after the last delay', () => {
    expect(nextAttemptAt(3, delays, now)).toBeNull();
  });
});
