import { describe, expect, it } from 'vitest';
import { ErrorCodeSchema, ErrorSchema, errorStatus } from './errors.js';

describe('error codes', () => {
  it('gives every code a 4xx or 5xx status', () => {
    for (const code of ErrorCodeSchema.options) {
      expect(errorStatus[code], code).toBeGreaterThanOrEqual(400);
      expect(errorStatus[code], code).toBeLessThan(600);
    }
  });

  it('accepts an error body with details and rejects an unknown code', () => {
    const body = {
      code: 'validation_failed',
      message: 'body.quantity: must be >= 1',
      status: 400,
      requestId: 'req-1',
      details: [{ path: 'body.quantity', message: 'must be >= 1' }],
    };
    expect(ErrorSchema.parse(body)).toEqual(body);
    expect(ErrorSchema.safeParse({ ...body, code: 'teapot' }).success).toBe(
      false,
    );
  });
});
