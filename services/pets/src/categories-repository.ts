import { storedId, type Category, type NewCategory } from '@petstore/contract';
import { AppError, nextSequenceValue } from '@petstore/service-kit';
import type { Collection, Db, UpdateFilter } from 'mongodb';
import { categoryNotFound } from './errors.js';
import { nameKeyOf } from './name-keys.js';
import {
  categoriesCollection,
  exists,
  findPage,
  isDuplicateKeyError,
  petsCollection,
  sequences,
  type CategoryDocument,
  type PageQuery,
  type PetDocument,
} from './storage.js';

/**
 * Categories, unique by name regardless of case through the unique index on `nameKey`: a write
 * onto a used name fails with a duplicate key error (409), with no check-then-insert race.
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

  async list(page: PageQuery): Promise<Category[]> {
    return (await findPage(this.#categories, {}, page)).map(toCategory);
  }

  async get(categoryId: bigint): Promise<Category> {
    const document = await this.#categories.findOne({ _id: storedId(categoryId) });
    if (!document) throw categoryNotFound(categoryId);
    return toCategory(document);
  }

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

  /** Replaces the name and description (removed when left out). */
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
   * Deletes a category no pet uses. Without transactions the look for its pets and the delete are
   * two operations, so the delete is conditional on the category's `revision`, which every pet
   * write pointing at it moves after writing the pet: a pet that arrives in between makes the
   * delete match nothing.
   */
  async delete(categoryId: bigint): Promise<void> {
    const _id = storedId(categoryId);
    const document = await this.#categories.findOne({ _id }, { projection: { revision: 1 } });
    if (!document) throw categoryNotFound(categoryId);
    if (!(await exists(this.#pets, { categoryId: _id }))) {
      const { deletedCount } = await this.#categories.deleteOne({
        _id,
        revision: document.revision,
      });
      if (deletedCount === 1) return;
      // Matched nothing: another request deleted it first, or a pet was just added to it.
      if (!(await exists(this.#categories, { _id }))) throw categoryNotFound(categoryId);
    }
    throw new AppError(
      'category_in_use',
      `[pets] category ${categoryId} is used by pets; delete them or move them to another category first`,
    );
  }
}

function nameConflictOr(error: unknown, name: string): unknown {
  if (!isDuplicateKeyError(error)) return error;
  return new AppError('conflict', `[pets] a category named "${name}" already exists`, {
    cause: error,
  });
}

function toCategory({ _id, name, description }: CategoryDocument): Category {
  return description === undefined ? { id: _id, name } : { id: _id, name, description };
}
