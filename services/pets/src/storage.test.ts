import { MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { isDuplicateKeyError } from './storage.js';

describe('isDuplicateKeyError', () => {
  it('recognises MongoDB’s duplicate key error', () => {
    const error = new MongoServerError({ code: 11000, errmsg: 'E11000 duplicate key error' });
    expect(isDuplicateKeyError(error)).toBe(true);
  });

  it('leaves other errors alone', () => {
    expect(isDuplicateKeyError(new MongoServerError({ code: 1, errmsg: 'disk full' }))).toBe(false);
    expect(isDuplicateKeyError(new Error('E11000 duplicate key error'))).toBe(false);
  });
});
