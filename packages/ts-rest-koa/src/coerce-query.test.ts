import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { coerceQuery } from './coerce-query.js';

describe('coerceQuery', () => {
  it('wraps a single value of an array field, however the array is wrapped', () => {
    const schema = z
      .object({
        plain: z.array(z.string()),
        optional: z.array(z.string()).optional(),
        defaulted: z.array(z.string()).default([]),
        preprocessed: z.preprocess((value) => value, z.array(z.string())),
      })
      .refine(() => true);
    const query = { plain: 'a', optional: 'b', defaulted: 'c', preprocessed: 'd' };
    expect(coerceQuery(query, schema)).toEqual({
      plain: ['a'],
      optional: ['b'],
      defaulted: ['c'],
      preprocessed: ['d'],
    });
  });

  it('keeps repeated values, scalar fields and fields the schema does not name as they are', () => {
    const schema = z.object({ status: z.array(z.string()), limit: z.coerce.number() });
    const query = { status: ['a', 'b'], limit: '5', other: 'x' };
    expect(coerceQuery(query, schema)).toEqual(query);
  });

  it('leaves the query alone when the contract has no object schema for it', () => {
    const query = { status: 'a' };
    expect(coerceQuery(query, undefined)).toBe(query);
  });
});
