import { MongoServerError } from 'mongodb';

const DUPLICATE_KEY = 11000;

/**
 * True when a write failed on a unique index. MongoDB says so with code 11000 everywhere;
 * FerretDB 1.24 does for inserts, but an update that would break a unique index fails there with
 * `InternalError` (code 1) carrying SQLite's `UNIQUE constraint failed` (the update is not applied).
 */
export function isDuplicateKeyError(error: unknown): boolean {
  if (!(error instanceof MongoServerError)) return false;
  if (error.code === DUPLICATE_KEY) return true;
  return error.code === 1 && error.message.includes('UNIQUE constraint failed');
}
