import { describe, expect, it } from 'vitest';
import { z } from '../../zod.js';
import { exampleValue } from './example-value.js';

describe('exampleValue', () => {
  it('takes the example a field declares, even under optional and preprocess wrappers', () => {
    const schema = z.preprocess(
      (value) => value,
      z.object({
        name: z.string().openapi({ example: 'Rex' }),
        nickname: z.string().openapi({ example: 'Rexy' }).optional(),
      }),
    );
    expect(exampleValue(schema)).toEqual({ name: 'Rex', nickname: 'Rexy' });
  });

  it('skips optional fields without an example and keeps required ones', () => {
    const schema = z.object({
      petId: z.number().int(),
      shipDate: z.string().datetime().optional(),
    });
    expect(exampleValue(schema)).toEqual({ petId: 1 });
  });

  it('uses the first enum value, defaults and nested objects and arrays', () => {
    const schema = z.object({
      status: z.enum(['available', 'pending', 'sold']),
      limit: z.number().int().default(20),
      owner: z.object({ kind: z.literal('person') }),
      tags: z.array(
        z.object({ label: z.string().openapi({ example: 'calm' }) }),
      ),
    });
    expect(exampleValue(schema)).toEqual({
      status: 'available',
      owner: { kind: 'person' },
      tags: [{ label: 'calm' }],
    });
    expect(exampleValue(schema.shape.limit)).toBe(20);
  });

  it('reads an example given as parameter metadata', () => {
    expect(
      exampleValue(z.string().openapi({ param: { example: 'abc' } })),
    ).toBe('abc');
  });
});
