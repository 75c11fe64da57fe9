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
    expect(validateRequest(placeOrder, raw).params).toEqual({
      shopId: 'north',
      orderId: 7,
    });
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
      {
        path: 'headers.Idempotency-Key',
        message: 'String must contain at least 8 character(s)',
      },
      { path: 'body.quantity', message: 'Required' },
    ]);
  });

  it('reports a missing body at the body itself', () => {
    expect(
      issuesOf(() => validateRequest(placeOrder, { ...raw, body: undefined })),
    ).toEqual([{ path: 'body', message: 'Required' }]);
  });
});

describe('validateRequest with strict schemas', () => {
  const updateShop = c.router({
    updateShop: {
      method: 'PATCH',
      path: '/shops/:shopId',
      query: z
        .object({ dryRun: z.enum(['true', 'false']).optional() })
        .strict(),
      body: z
        .object({
          name: z.string(),
          address: z.object({ city: z.string() }).strict(),
        })
        .partial()
        .strict(),
      responses: { 200: z.object({}) },
    },
  }).updateShop;
  const getShop = c.router({
    getShop: {
      method: 'GET',
      path: '/shops/:shopId',
      responses: { 200: z.object({}) },
    },
  }).getShop;
  const shop = {
    params: { shopId: 'north' },
    query: {},
    headers: {},
    body: {},
  };

  it('names each unknown body property, at any depth, and each unknown query parameter', () => {
    const request = {
      ...shop,
      query: { dryRun: 'true', colour: 'red' },
      body: {
        stauts: 'open',
        nmae: 'x',
        address: { city: 'Oslo', zip: '0150' },
      },
    };
    expect(issuesOf(() => validateRequest(updateShop, request))).toEqual([
      { path: 'query.colour', message: 'unknown parameter' },
      { path: 'body.address.zip', message: 'unknown parameter' },
      { path: 'body.stauts', message: 'unknown parameter' },
      { path: 'body.nmae', message: 'unknown parameter' },
    ]);
  });

  it('says what it refuses in the message, path first', () => {
    const request = { ...shop, body: { stauts: 'open' } };
    expect(() => validateRequest(updateShop, request)).toThrow(
      'body.stauts: unknown parameter',
    );
  });

  it('refuses any query parameter on a route that declares no query', () => {
    expect(
      issuesOf(() =>
        validateRequest(getShop, { ...shop, query: { colour: 'x' } }),
      ),
    ).toEqual([{ path: 'query.colour', message: 'unknown parameter' }]);
    expect(validateRequest(getShop, shop).query).toEqual({});
  });

  it('refuses a body, even an empty object, on a POST that takes none', () => {
    const closeShop = c.router({
      closeShop: {
        method: 'POST',
        path: '/shops/:shopId/close',
        body: c.noBody(),
        responses: {},
      },
    }).closeShop;
    expect(issuesOf(() => validateRequest(closeShop, shop))).toEqual([
      { path: 'body', message: 'must be absent' },
    ]);
    expect(
      validateRequest(closeShop, { ...shop, body: undefined }).body,
    ).toBeUndefined();
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
    const query = {
      plain: 'a',
      optional: 'b',
      defaulted: 'c',
      preprocessed: 'd',
    };
    expect(coerceQuery(query, schema)).toEqual({
      plain: ['a'],
      optional: ['b'],
      defaulted: ['c'],
      preprocessed: ['d'],
    });
  });

  it('takes keys an object inherits, such as __proto__, as fields the schema does not name', () => {
    const schema = z.object({ status: z.array(z.string()) });
    const query = Object.fromEntries([
      ['__proto__', ''],
      ['constructor', 'x'],
      ['toString', 'y'],
    ]) as Record<string, string>;
    expect(coerceQuery(query, schema)).toEqual(query);
  });

  it('keeps repeated values, scalar fields and fields the schema does not name as they are', () => {
    const schema = z.object({
      status: z.array(z.string()),
      limit: z.coerce.number(),
    });
    const query = { status: ['a', 'b'], limit: '5', other: 'x' };
    expect(coerceQuery(query, schema)).toEqual(query);
  });

  it('leaves the query alone when the contract has no object schema for it', () => {
    const query = { status: 'a' };
    expect(coerceQuery(query, undefined)).toBe(query);
  });
});
