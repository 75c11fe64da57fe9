import type {
  Category,
  NewCategory,
  NewPet,
  Pet,
  PetPatch,
  PetStatus,
} from '@petstore/contract';
import {
  eventMessages,
  newEvent,
  type Executed,
  type Idempotency,
  type KeyedRequest,
  type Outbox,
  type Session,
  type Transaction,
} from '@petstore/service-kit';
import type { CategoriesRepository } from './categories-repository.js';
import { notFound, unknownCategory } from './storage.js';
import {
  toPet,
  type PetFields,
  type PetsRepository,
} from './pets-repository.js';

export interface CatalogueDeps {
  pets: PetsRepository;
  categories: CategoriesRepository;
  outbox: Outbox;
  idempotency: Idempotency;
  transaction: Transaction;
}

export type Catalogue = ReturnType<typeof createCatalogue>;

/**
 * The catalogue's writes, each one transaction: a pet that points at a category moves the
 * category's revision, so that it and a delete of the category cannot both commit; a change of
 * status adds `pet.status_changed` to the outbox with the change.
 */
export function createCatalogue(deps: CatalogueDeps) {
  const { pets, categories, outbox, idempotency, transaction } = deps;
  async function write(
    petId: bigint,
    fields: PetFields,
    session: Session,
  ): Promise<Pet> {
    const before = await pets.find(petId, session);
    if (!before) throw notFound('pet', petId);
    const { categoryId } = fields;
    const moves = categoryId !== undefined && categoryId !== before.categoryId;
    if (moves && !(await categories.confirm(categoryId, session))) {
      throw unknownCategory(categoryId);
    }
    const after = await pets.update(petId, fields, session);
    if (!after) throw notFound('pet', petId);
    const pet = toPet(after);
    if (after.status !== before.status) {
      await outbox.add(
        session,
        eventMessages([newEvent('pet.status_changed', pet)]),
      );
    }
    return pet;
  }

  return {
    /** Adds a pet, once per `Idempotency-Key`: the key's record is written with it. */
    async createPet(pet: NewPet, keyed?: KeyedRequest): Promise<Executed<Pet>> {
      const { name, categoryId, status = 'available' } = pet;
      const _id = await pets.nextId();
      return idempotency.run<Pet>(keyed, async (session) => {
        if (!(await categories.confirm(categoryId, session)))
          throw unknownCategory(categoryId);
        const document = { _id, name, categoryId, status };
        await pets.insert(document, session);
        return { status: 201, body: toPet(document) };
      });
    },

    /** Adds a category, once per `Idempotency-Key`: the key's record is written with it. */
    async createCategory(
      category: NewCategory,
      keyed?: KeyedRequest,
    ): Promise<Executed<Category>> {
      const _id = await categories.nextId();
      return idempotency.run<Category>(keyed, async (session) => ({
        status: 201,
        body: await categories.create(_id, category, session),
      }));
    },

    replacePet(
      petId: bigint,
      { name, categoryId, status = 'available' }: NewPet,
    ) {
      return transaction((session) =>
        write(petId, { name, categoryId, status }, session),
      );
    },

    async updatePet(petId: bigint, patch: PetPatch): Promise<Pet> {
      const fields = Object.fromEntries(
        Object.entries(patch).filter(([, value]) => value !== undefined),
      );
      if (Object.keys(fields).length === 0) return pets.get(petId);
      return transaction((session) => write(petId, fields, session));
    },

    /** The status the store derives from stock, kept only over an older version. */
    setStatus(petId: bigint, status: PetStatus, version: number): Promise<Pet> {
      return transaction(async (session) => {
        const pet = await pets.find(petId, session);
        if (!pet) throw notFound('pet', petId);
        if ((pet.statusVersion ?? 0) >= version) return toPet(pet);
        return write(petId, { status, statusVersion: version }, session);
      });
    },

    async deletePet(petId: bigint): Promise<void> {
      if (!(await pets.delete(petId))) throw notFound('pet', petId);
    },

    deleteCategory(categoryId: bigint): Promise<void> {
      return transaction((session) => categories.delete(categoryId, session));
    },
  };
}
