import { initContract } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RequestValidationError } from './errors.js';
import { coerceQuery, validateRequest } from './validate-request.js';

const c = initContract();

const placeOrder = c.router({
  placeOrder: {
    method: 'POST',
    path: '/shops/:shopId/orders/:orderId',
    pathParams: z.object({ orderId: z.coerce.number() }),
    headers: z.object({ 'Idempotency-Key': z.string().min(8) }).strict(),
    body: z.object({ quantity: z.number().int().min(1) }),
    responses: { 201: z.object({}) },
  },
}).placeOrder;

const raw = {
  params: { shopId: 'north', orderId: '7' },
  query: {},
  headers: { 'idempotency-key': 'abcdefgh', 'user-agent': 'test' },
  body: { quantity: 2 },
};

function issuesOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    if (error instanceof RequestValidationError) {
      return error.details;
    }
    throw error;
  }
  throw new Error('expected a RequestValidationError');
}

describe('validateRequest', () => {
  it('keeps path parameters the schema does not name', () => {
    expect(validateRequest(placeOrder, raw).params).toEqual({ shopId: 'north', orderId: 7 });
  });

  it('checks declared headers case-insensitively and passes the others through unchecked', () => {
    expect(validateRequest(placeOrder, raw).headers).toEqual({
      'idempotency-key': 'abcdefgh',
      'user-agent': 'test',
    });
  });

  it('collects the issues of every part in one error', () => {
    const invalid = {
      ...raw,
      params: { shopId: 'north', orderId: 'x' },
      headers: { 'idempotency-key': 'short' },
      body: {},
    };
    expect(issuesOf(() => validateRequest(placeOrder, invalid))).toEqual([
      { path: 'params.orderId', message: 'Expected number, received nan' },
      { path: 'headers.Idempotency-Key', message: 'String must contain at least 8 character(s)' },
      { path: 'body.quantity', message: 'Required' },
    ]);
  });

  it('reports a missing body at the body itself', () => {
    expect(issuesOf(() => validateRequest(placeOrder, { ...raw, body: undefined }))).toEqual([
      { path: 'body', message: 'Required' },
    ]);
  });
});

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
