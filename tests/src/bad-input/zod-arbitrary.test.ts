import { contract } from '@petstore/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { arbitraryOf, validArbitraryOf } from './zod-arbitrary.js';

/** Every request schema of the public contract: bodies, path parameters, queries, headers. */
const schemas = Object.values(contract.v2).flatMap((router) =>
  Object.entries(router).flatMap(([name, route]) =>
    (['body', 'pathParams', 'query', 'headers'] as const).flatMap((part) => {
      const schema = (route as Record<string, unknown>)[part];
      return schema instanceof z.ZodType
        ? [{ name: `${name} ${part}`, schema }]
        : [];
    }),
  ),
);

describe('arbitraryOf', () => {
  it('finds request schemas in the contract', () => {
    expect(schemas.length).toBeGreaterThan(20);
  });

  it.each(schemas)('mostly builds values that $name accepts', ({ schema }) => {
    const values = fc.sample(arbitraryOf(schema, { text: 'unicode' }), {
      numRuns: 200,
      seed: 42,
    });
    const accepted = values.filter((value) => schema.safeParse(value).success);
    // Trimmed names left empty, lone surrogates and odd emails are the only refusals.
    expect(accepted.length).toBeGreaterThan(values.length / 2);
  });

  it.each(schemas)(
    'builds only values that $name accepts once filtered',
    ({ schema }) => {
      fc.assert(
        fc.property(
          validArbitraryOf(schema),
          (value) => schema.safeParse(value).success,
        ),
        { numRuns: 100 },
      );
    },
  );

  it('offers known values in the form the field accepts', () => {
    const schema = z.object({
      petId: z.number().int().min(0),
      categoryId: z.string(),
    });
    const values = fc.sample(
      arbitraryOf(schema, { known: { petId: ['7'], categoryId: [3] } }),
      {
        numRuns: 300,
        seed: 1,
      },
    ) as { petId: unknown; categoryId: unknown }[];
    expect(values.some((value) => value.petId === 7)).toBe(true);
    expect(values.some((value) => value.categoryId === '3')).toBe(true);
  });

  it('keeps header values to visible ASCII', () => {
    const values = fc.sample(
      arbitraryOf(z.string().min(1).max(255), { text: 'header' }),
      200,
    );
    expect(
      values.every((value) => /^[\x21-\x7e]+$/.test(value as string)),
    ).toBe(true);
  });

  it('refuses a shape it does not know, so a new one in the contract is noticed', () => {
    expect(() => arbitraryOf(z.union([z.string(), z.number()]))).toThrow(
      /no arbitrary/,
    );
    expect(() => arbitraryOf(z.string().cuid())).toThrow(/cuid/);
  });

  it('builds web URLs within the length a url schema allows', () => {
    const schema = z.string().url().max(40);
    const values = fc.sample(arbitraryOf(schema), { numRuns: 200, seed: 7 });
    expect(values.filter((value) => !schema.safeParse(value).success)).toEqual(
      [],
    );
    expect(values.every((value) => /^https?:\/\//.test(value as string))).toBe(
      true,
    );
  });
});
