import { MongoServerError } from 'mongodb';

const DUPLICATE_KEY = 11000;

/** True when a write failed on a unique index. */
export function isDuplicateKeyError(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === DUPLICATE_KEY;
}
