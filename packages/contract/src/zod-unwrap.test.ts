import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { objectShape, unwrapSchema } from './zod-unwrap.js';

describe('unwrapSchema', () => {
  const inner = z.array(z.string());

  it.each([
    ['optional', inner.optional()],
    ['nullable', inner.nullable()],
    ['default', inner.default([])],
    ['effects', z.preprocess((value) => value, inner)],
    ['pipeline', inner.pipe(z.array(z.string().min(1)))],
    ['brand', inner.brand<'Tags'>()],
    ['readonly', inner.readonly()],
    [
      'all of them at once',
      inner.readonly().brand<'Tags'>().nullable().optional().default([]),
    ],
  ])('finds the schema under %s', (_wrapper, schema) => {
    expect(unwrapSchema(schema)).toBe(inner);
  });

  it('returns a schema with no wrapper as it is', () => {
    expect(unwrapSchema(inner)).toBe(inner);
  });

  it('returns what a shape gives for an inherited key, not a schema, as it is', () => {
    const shape: Record<string, unknown> = z.object({}).shape;
    const inherited = shape['__proto__'] as z.ZodTypeAny;
    expect(unwrapSchema(inherited)).toBe(inherited);
  });
});

describe('objectShape', () => {
  const fields = { name: z.string() };

  it('gives the fields of an object schema, however it is wrapped', () => {
    expect(
      objectShape(z.object(fields).readonly().nullable().optional()),
    ).toEqual(fields);
  });

  it('gives undefined for anything else', () => {
    expect(objectShape(z.string())).toBeUndefined();
    expect(objectShape(undefined)).toBeUndefined();
    expect(objectShape({ name: 'not a schema' })).toBeUndefined();
  });
});
