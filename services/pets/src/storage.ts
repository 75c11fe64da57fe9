import type { PetStatus } from '@petstore/contract';
import type { WithPendingEvents } from '@petstore/service-kit';
import { MongoServerError, type Collection, type Db, type Filter } from 'mongodb';

export interface PetDocument extends WithPendingEvents {
  _id: number;
  name: string;
  categoryId: number;
  status: PetStatus;
  /** The version of the store's last status push that was kept; absent before the first. */
  statusVersion?: number;
}

export interface CategoryDocument {
  _id: number;
  name: string;
  /** `nameKeyOf(name)`, unique: names are unique regardless of case. */
  nameKey: string;
  description?: string;
  /** Moves whenever a pet starts using the category; deleting it requires it unchanged. */
  revision: number;
}

export function petsCollection(db: Db) {
  return db.collection<PetDocument>('pets');
}

export function categoriesCollection(db: Db) {
  return db.collection<CategoryDocument>('categories');
}

/** The id sequences of `nextSequenceValue`, kept in the `counters` collection. */
export const sequences = { pets: 'pets', categories: 'categories' } as const;

/** A page in id order: ids after the cursor `after`. */
export interface PageQuery {
  after: number;
  limit: number;
}

export function findPage<T extends { _id: number }>(
  collection: Collection<T>,
  filter: Filter<T>,
  { after, limit }: PageQuery,
): Promise<T[]> {
  const page = { ...filter, _id: { $gt: after } } as Filter<T>;
  return collection.find(page).sort({ _id: 1 }).limit(limit).toArray() as Promise<T[]>;
}

export async function exists<T extends { _id: number }>(
  collection: Collection<T>,
  filter: Filter<T>,
): Promise<boolean> {
  return (await collection.findOne(filter, { projection: { _id: 1 } })) !== null;
}

/** True when a write failed on a unique index. */
export function isDuplicateKeyError(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === 11000;
}
