import {
  OpenApiGeneratorV3,
  OpenAPIRegistry,
} from '@asteasolutions/zod-to-openapi';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { NewPetSchema } from './pets.js';
import { requestBody } from './request-body.js';
import type { z } from './zod.js';

// Unknown keys stripped rather than refused, to see what the walk alone refuses.
const NewPetBody = requestBody(NewPetSchema.strip());
const pet = { name: 'Rex', categoryId: 1 };

function issuePaths(value: unknown): string[] {
  const result = NewPetBody.safeParse(value);
  return result.success
    ? []
    : result.error.issues.map((issue) => issue.path.join('.'));
}

describe('requestBody', () => {
  it('parses a body with the schema inside', () => {
    expect(NewPetBody.parse({ ...pet, status: 'sold' })).toEqual({
      ...pet,
      status: 'sold',
    });
  });

  it('drops unknown properties of a schema that strips them', () => {
    expect(NewPetBody.parse({ ...pet, owner: 'jane', id: 99 })).toEqual(pet);
  });

  it('refuses unknown properties of a strict schema, as the contract’s are', () => {
    const result = requestBody(NewPetSchema).safeParse({
      ...pet,
      stauts: 'sold',
    });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        code: 'unrecognized_keys',
        keys: ['stauts'],
        path: [],
      }),
    ]);
  });

  it('rejects $-prefixed and dotted keys at the top level, even unknown ones', () => {
    expect(issuePaths({ ...pet, $where: 'sleep(1000)' })).toEqual(['$where']);
    expect(issuePaths({ ...pet, 'owner.name': 'jane' })).toEqual([
      'owner.name',
    ]);
  });

  it('rejects such keys nested in objects and arrays', () => {
    expect(issuePaths({ ...pet, tags: [{ label: { $ne: null } }] })).toEqual([
      'tags.0.label.$ne',
    ]);
    expect(issuePaths({ ...pet, extra: { deep: { 'a.b': 1 } } })).toEqual([
      'extra.deep.a.b',
    ]);
  });

  it('rejects an operator object where a string belongs, for both reasons', () => {
    const result = NewPetBody.safeParse({ ...pet, name: { $gt: '' } });
    expect(
      result.error?.issues.map(({ path, message }) => [
        path.join('.'),
        message,
      ]),
    ).toEqual([
      ['name.$gt', 'a key must not start with "$" or contain "."'],
      ['name', 'Expected string, received object'],
    ]);
  });

  it('rejects a string with a lone surrogate, wherever it is, and keeps paired ones', () => {
    expect(issuePaths({ ...pet, name: 'Re\ud800x' })).toEqual(['name']);
    expect(issuePaths({ ...pet, notes: ['ok', { text: 'x\udc00' }] })).toEqual([
      'notes.1.text',
    ]);
    expect(NewPetBody.parse({ ...pet, name: 'Rex 🐶\u0000' })).toEqual({
      ...pet,
      name: 'Rex 🐶\u0000',
    });
  });

  it('reports at most ten keys of a body full of them', () => {
    const body = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [`$k${i}`, i]),
    );
    expect(issuePaths({ ...pet, ...body })).toHaveLength(10);
  });

  it('walks a deeply nested body without overflowing the stack', () => {
    const deep: unknown = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
    expect(NewPetBody.safeParse(deep).success).toBe(false);
  });

  it('keeps __proto__ and constructor keys out of the output and Object.prototype', () => {
    const body: unknown = JSON.parse(
      '{"name":"Rex","categoryId":1,"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    );
    const parsed = NewPetBody.parse(body);
    expect(parsed).toEqual(pet);
    expect(Object.keys(parsed)).toEqual(['name', 'categoryId']);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('is documented as the schema inside', () => {
    const registry = new OpenAPIRegistry();
    registry.registerPath({
      method: 'post',
      path: '/v1/pets',
      request: {
        body: { content: { 'application/json': { schema: NewPetBody } } },
      },
      responses: { 204: { description: 'No content' } },
    });
    const document = new OpenApiGeneratorV3(
      registry.definitions,
    ).generateDocument({
      openapi: '3.0.3',
      info: { title: 'test', version: '1.0.0' },
    });
    expect(document.paths['/v1/pets']?.post?.requestBody).toEqual({
      content: {
        'application/json': { schema: { $ref: '#/components/schemas/NewPet' } },
      },
    });
    expect(document.components?.schemas?.NewPet).toMatchObject({
      type: 'object',
      required: ['name', 'categoryId'],
      properties: {
        categoryId: {
          type: 'integer',
          format: 'int64',
          minimum: 0,
          example: 1,
        },
        status: { $ref: '#/components/schemas/PetStatus' },
      },
    });
  });

  it('keeps the input type of the schema inside, for typed clients', () => {
    expectTypeOf<z.input<typeof NewPetBody>>().toEqualTypeOf<
      z.input<typeof NewPetSchema>
    >();
  });
});
