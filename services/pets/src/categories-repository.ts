import { storedId, type Category, type NewCategory } from '@petstore/contract';
import {
  AppError,
  findPage,
  isDuplicateKey,
  nextSequenceValue,
  type IdPage,
  type Session,
} from '@petstore/service-kit';
import {
  CatalogueCollections,
  exists,
  nameKeyOf,
  notFound,
  type CategoryDocument,
} from './storage.js';

/** Categories, unique by name regardless of case through the unique index on `nameKey`. */
export class CategoriesRepository extends CatalogueCollections {
  async list(page: IdPage): Promise<Category[]> {
    return (await findPage(this.categories, {}, page)).map(toCategory);
  }

  async get(categoryId: bigint): Promise<Category> {
    const document = await this.categories.findOne({
      _id: storedId(categoryId),
    });
    if (!document) throw notFound('category', categoryId);
    return toCategory(document);
  }

  nextId(): Promise<number> {
    return nextSequenceValue(this.db, 'categories');
  }

  async create(
    _id: number,
    { name, description }: NewCategory,
    session: Session,
  ): Promise<Category> {
    const document = {
      _id,
      name,
      nameKey: nameKeyOf(name),
      revision: 0,
      ...(description === undefined ? {} : { description }),
    };
    await named(name, () => this.categories.insertOne(document, { session }));
    return toCategory(document);
  }

  /** Replaces the name and description (removed when left out). */
  async replace(
    categoryId: bigint,
    { name, description }: NewCategory,
  ): Promise<Category> {
    const $set = { name, nameKey: nameKeyOf(name) };
    const update =
      description === undefined
        ? { $set, $unset: { description: '' as const } }
        : { $set: { ...$set, description } };
    const document = await named(name, () =>
      this.categories.findOneAndUpdate({ _id: storedId(categoryId) }, update, {
        returnDocument: 'after',
      }),
    );
    if (!document) throw notFound('category', categoryId);
    return toCategory(document);
  }

  /** True when the category exists; moves its revision, so that a delete running meanwhile fails. */
  async confirm(categoryId: number, session: Session): Promise<boolean> {
    const { matchedCount } = await this.categories.updateOne(
      { _id: categoryId },
      { $inc: { revision: 1 } },
      { session },
    );
    return matchedCount === 1;
  }

  /** Deletes a category no pet uses, in one transaction with the look for its pets. */
  async delete(categoryId: bigint, session: Session): Promise<void> {
    const _id = storedId(categoryId);
    if (!(await exists(this.categories, { _id }, session)))
      throw notFound('category', categoryId);
    if (await exists(this.pets, { categoryId: _id }, session)) {
      throw new AppError(
        'category_in_use',
        `[pets] category ${categoryId} is used by pets; delete them or move them to another category first`,
      );
    }
    await this.categories.deleteOne({ _id }, { session });
  }
}

/** A write of `name`: 409 when another category has it, with no check-then-insert race. */
async function named<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    throw new AppError(
      'conflict',
      `[pets] a category named "${name}" already exists`,
      {
        cause: error,
      },
    );
  }
}

function toCategory({ _id, name, description }: CategoryDocument): Category {
  return description === undefined
    ? { id: _id, name }
    : { id: _id, name, description };
}
