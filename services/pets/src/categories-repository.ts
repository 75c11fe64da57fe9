import { storedId, type Category, type NewCategory } from '@petstore/contract';
import { AppError, nextSequenceValue } from '@petstore/service-kit';
import type { Collection, Db, UpdateFilter } from 'mongodb';
import { isDuplicateKeyError } from './duplicate-key.js';
import { categoryNotFound } from './errors.js';
import { nameKeyOf } from './name-keys.js';
import {
  categoriesCollection,
  petsCollection,
  sequences,
  type CategoryDocument,
  type PetDocument,
} from './storage.js';

export interface CategoryListQuery {
  /** Only categories with a greater id (the cursor). */
  after: number;
  limit: number;
}

/**
 * Categories in the `categories` collection. Names are unique regardless of case through the
 * unique index on `nameKey` (the case-folded name, see `nameKeyOf`): an insert or rename onto a used name fails
 * with a duplicate key error, answered 409, with no check-then-insert race.
 */
export class CategoriesRepository {
  readonly #db: Db;
  readonly #categories: Collection<CategoryDocument>;
  readonly #pets: Collection<PetDocument>;

  constructor(db: Db) {
    this.#db = db;
    this.#categories = categoriesCollection(db);
    this.#pets = petsCollection(db);
  }

  /** A page of categories in id order. */
  async list({ after, limit }: CategoryListQuery): Promise<Category[]> {
    const documents = await this.#categories
      .find({ _id: { $gt: after } })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return documents.map(toCategory);
  }

  async get(categoryId: bigint): Promise<Category> {
    const document = await this.#categories.findOne({ _id: storedId(categoryId) });
    if (!document) throw categoryNotFound(categoryId);
    return toCategory(document);
  }

  /** Adds a category with the next id; 409 when its name is used, in any case. */
  async create(newCategory: NewCategory): Promise<Category> {
    const document: CategoryDocument = {
      _id: await nextSequenceValue(this.#db, sequences.categories),
      name: newCategory.name,
      nameKey: nameKeyOf(newCategory.name),
      revision: 0,
    };
    if (newCategory.description !== undefined) document.description = newCategory.description;
    try {
      await this.#categories.insertOne(document);
    } catch (error) {
      throw nameConflictOr(error, newCategory.name);
    }
    return toCategory(document);
  }

  /** Replaces the name and description (removed when left out); 409 for another's name. */
  async replace(categoryId: bigint, newCategory: NewCategory): Promise<Category> {
    const update: UpdateFilter<CategoryDocument> = {
      $set: { name: newCategory.name, nameKey: nameKeyOf(newCategory.name) },
    };
    if (newCategory.description === undefined) update.$unset = { description: '' };
    else update.$set = { ...update.$set, description: newCategory.description };
    let document: CategoryDocument | null;
    try {
      document = await this.#categories.findOneAndUpdate({ _id: storedId(categoryId) }, update, {
        returnDocument: 'after',
      });
    } catch (error) {
      throw nameConflictOr(error, newCategory.name);
    }
    if (!document) throw categoryNotFound(categoryId);
    return toCategory(document);
  }

  /**
   * Deletes a category no pet uses (409 `category_in_use` otherwise). Without transactions the
   * look for its pets and the delete are two operations, so the delete is conditional on the
   * category's `revision`, which every pet write pointing at it moves after writing the pet: when
   * a pet arrives between the look and the delete, the delete matches nothing and the category is
   * in use after all.
   */
  async delete(categoryId: bigint): Promise<void> {
    const _id = storedId(categoryId);
    const document = await this.#categories.findOne({ _id }, { projection: { revision: 1 } });
    if (!document) throw categoryNotFound(categoryId);
    if (!(await this.#inUse(_id))) {
      const { deletedCount } = await this.#categories.deleteOne({
        _id,
        revision: document.revision,
      });
      if (deletedCount === 1) return;
      // Matched nothing: another request deleted it first, or a pet was just added to it.
      if (!(await this.#categories.findOne({ _id }, { projection: { _id: 1 } }))) {
        throw categoryNotFound(categoryId);
      }
    }
    throw new AppError(
      'category_in_use',
      `[pets] category ${categoryId} is used by pets; delete them or move them to another category first`,
    );
  }

  async #inUse(categoryId: number): Promise<boolean> {
    return (await this.#pets.findOne({ categoryId }, { projection: { _id: 1 } })) !== null;
  }
}

function nameConflictOr(error: unknown, name: string): unknown {
  if (isDuplicateKeyError(error)) {
    return new AppError('conflict', `[pets] a category named "${name}" already exists`, {
      cause: error,
    });
  }
  return error;
}

function toCategory(document: CategoryDocument): Category {
  const category: Category = { id: document._id, name: document.name };
  if (document.description !== undefined) category.description = document.description;
  return category;
}
