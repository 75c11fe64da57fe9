import type { Document } from 'mongodb';
import type { DatabaseReader } from './databases.js';

/** Every document of one collection of the stack's databases, in `_id` order. */
export function allDocuments(
  reader: DatabaseReader,
  database: string,
  collection: string,
): Promise<Document[]> {
  return reader
    .db(database)
    .collection(collection)
    .find()
    .sort({ _id: 1 })
    .toArray();
}
