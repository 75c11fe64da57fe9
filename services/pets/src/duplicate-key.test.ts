import { MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { isDuplicateKeyError } from './duplicate-key.js';

describe('isDuplicateKeyError', () => {
  it('recognises MongoDB’s duplicate key error', () => {
    const error = new MongoServerError({ code: 11000, errmsg: 'E11000 duplicate key error' });
    expect(isDuplicateKeyError(error)).toBe(true);
  });

  it('recognises FerretDB’s unique constraint failure on an update', () => {
    const error = new MongoServerError({
      code: 1,
      codeName: 'InternalError',
      errmsg: "[update.go:114] constraint failed: UNIQUE constraint failed: index 'c_k_1' (2067)",
    });
    expect(isDuplicateKeyError(error)).toBe(true);
  });

  it('leaves other errors alone', () => {
    expect(isDuplicateKeyError(new MongoServerError({ code: 1, errmsg: 'disk full' }))).toBe(false);
    expect(isDuplicateKeyError(new Error('E11000 duplicate key error'))).toBe(false);
  });
});
