import type { PetStatus } from '@petstore/contract';
import type { WithPendingEvents } from '@petstore/service-kit';
import type { Db } from 'mongodb';

/** A pet as stored: the contract's Pet with its id as `_id`. */
export interface PetDocument extends WithPendingEvents {
  _id: number;
  name: string;
  categoryId: number;
  status: PetStatus;
  /** The version of the store's last status push that was kept; absent before the first. */
  statusVersion?: number;
}

/** A category as stored. */
export interface CategoryDocument {
  _id: number;
  name: string;
  /** The name trimmed, NFC and case-folded (`nameKeyOf`); unique, so names are unique regardless of case. */
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
