import { describe, expect, it } from 'vitest';
import { PageQuerySchema } from './pagination.js';

describe('PageQuerySchema', () => {
  it('gives 20 items when no limit is asked', () => {
    expect(PageQuerySchema.parse({})).toEqual({ limit: 20 });
  });

  it('reads a limit from 1 to 100 from the query string', () => {
    expect(PageQuerySchema.parse({ limit: '1' }).limit).toBe(1);
    expect(PageQuerySchema.parse({ limit: '100' }).limit).toBe(100);
  });

  it.each(['0', '101', '2.5', 'ten', ''])('rejects the limit %j', (limit) => {
    expect(PageQuerySchema.safeParse({ limit }).success).toBe(false);
  });

  it('takes an opaque cursor of up to 512 characters', () => {
    expect(PageQuerySchema.parse({ cursor: 'eyJpZCI6MjB9' }).cursor).toBe(
      'eyJpZCI6MjB9',
    );
    expect(PageQuerySchema.safeParse({ cursor: 'x'.repeat(513) }).success).toBe(
      false,
    );
  });
});
