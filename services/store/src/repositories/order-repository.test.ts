import { describe, expect, it } from 'vitest';
import { toTimestamp } from './order-repository.js';

describe('toTimestamp', () => {
  it('writes UTC without milliseconds when there are none', () => {
    expect(toTimestamp(new Date('2026-12-01T12:00:00+02:00'))).toBe(
      '2026-12-01T10:00:00Z',
    );
  });

  it('keeps milliseconds when there are some', () => {
    expect(toTimestamp(new Date('2026-12-01T10:00:00.250Z'))).toBe(
      '2026-12-01T10:00:00.250Z',
    );
  });
});
