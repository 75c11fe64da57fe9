import type { PetStatus } from '@petstore/contract';
import { AppError, type Session } from '@petstore/service-kit';
import type { Collection, Db, Filter } from 'mongodb';
import { caseFold } from 'unicode-case-folding';

export interface PetDocument {
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
  /** `nameKeyOf(name)`, unique. */
  nameKey: string;
  description?: string;
  /** Moves whenever a pet starts using the category, so that a delete running meanwhile conflicts. */
  revision: number;
}

/** Full case folding (`straße` = `STRASSE`), normalised again: folding can decompose (`İ`). */
export function nameKeyOf(name: string): string {
  return caseFold(name.trim().normalize('NFC')).normalize('NFC');
}

export const petsCollection = (db: Db) => db.collection<PetDocument>('pets');
export const categoriesCollection = (db: Db) =>
  db.collection<CategoryDocument>('categories');

/** The catalogue's collections, which both repositories read: pets point at categories. */
export abstract class CatalogueCollections {
  protected readonly pets: Collection<PetDocument>;
  protected readonly categories: Collection<CategoryDocument>;

  constructor(protected readonly db: Db) {
    this.pets = petsCollection(db);
    this.categories = categoriesCollection(db);
  }
}

export async function exists<T extends { _id: number }>(
  collection: Collection<T>,
  filter: Filter<T>,
  session?: Session,
): Promise<boolean> {
  return (
    (await collection.findOne(filter, { projection: { _id: 1 }, session })) !==
    null
  );
}

export function notFound(what: 'pet' | 'category', id: bigint): AppError {
  return new AppError('not_found', `[pets] ${what} ${id} not found`);
}

export function unknownCategory(categoryId: number): AppError {
  return new AppError(
    'unknown_category',
    `[pets] category ${categoryId} does not exist`,
    {
      details: [
        { path: 'body.categoryId', message: `no category ${categoryId}` },
      ],
    },
  );
}
