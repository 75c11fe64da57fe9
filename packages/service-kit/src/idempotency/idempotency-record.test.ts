import { describe, expect, it } from 'vitest';
import { hashBody, requestHashOf } from './idempotency-repository.js';

describe('hashBody', () => {
  it('is the same whatever the order of the keys', () => {
    expect(hashBody({ petId: 1, quantity: 2 })).toBe(
      hashBody({ quantity: 2, petId: 1 }),
    );
  });

  it('ignores properties that are undefined', () => {
    expect(hashBody({ petId: 1, shipDate: undefined })).toBe(
      hashBody({ petId: 1 }),
    );
  });

  it('differs when a value differs', () => {
    expect(hashBody({ petId: 1, quantity: 2 })).not.toBe(
      hashBody({ petId: 1, quantity: 3 }),
    );
    expect(hashBody({ petId: 1 })).not.toBe(hashBody({ petId: '1' }));
  });

  it('is a SHA-256 in hex', () => {
    expect(hashBody({})).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('requestHashOf', () => {
  it('binds a key to its operation as well as its body', () => {
    const request = { accountId: 'acct_1', key: 'k', body: undefined };
    const rotate = requestHashOf({
      ...request,
      operation: 'POST /v1/webhooks/wh_1/secret',
    });
    expect(rotate).not.toBe(
      requestHashOf({ ...request, operation: 'POST /v1/accounts/me/keys' }),
    );
    expect(rotate).not.toBe(
      requestHashOf({ ...request, operation: 'POST /v1/webhooks/wh_2/secret' }),
    );
  });
});
