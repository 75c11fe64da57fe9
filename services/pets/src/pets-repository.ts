import { storedId, type NewPet, type Pet, type PetPatch, type PetStatus } from '@petstore/contract';
import {
  carrying,
  eventWritten,
  nextSequenceValue,
  recordEvent,
  takenOff,
} from '@petstore/service-kit';
import type { Collection, Db, Filter } from 'mongodb';
import { eventsNotHandedOver, petNotFound, unknownCategory } from './errors.js';
import type { PetEvents } from './events.js';
import {
  categoriesCollection,
  petsCollection,
  sequences,
  type CategoryDocument,
  type PetDocument,
} from './storage.js';

export interface PetListQuery {
  /** Only pets in one of these statuses. */
  statuses?: PetStatus[];
  categoryId?: bigint;
  /** Only pets with a greater id (the cursor). */
  after: number;
  limit: number;
}

type PetFields = Omit<PetDocument, '_id'>;

/**
 * Pets in the `pets` collection. A pet's category lives in another collection, and a category may
 * be deleted while a pet is written, so every write that points a pet at a category ends by
 * confirming the category: an atomic `$inc` of its `revision`, which only matches while it exists
 * and which makes a concurrent delete of the category (conditional on that revision) fail. When
 * the confirmation finds no category, the write is undone and answered 422.
 */
export class PetsRepository {
  readonly #db: Db;
  readonly #pets: Collection<PetDocument>;
  readonly #categories: Collection<CategoryDocument>;
  readonly #events: PetEvents;

  constructor(db: Db, events: PetEvents) {
    this.#db = db;
    this.#events = events;
    this.#pets = petsCollection(db);
    this.#categories = categoriesCollection(db);
  }

  /** A page of pets in id order. */
  async list({ statuses, categoryId, after, limit }: PetListQuery): Promise<Pet[]> {
    const filter: Filter<PetDocument> = { _id: { $gt: after } };
    if (statuses !== undefined) filter.status = { $in: statuses };
    if (categoryId !== undefined) filter.categoryId = storedId(categoryId);
    const documents = await this.#pets.find(filter).sort({ _id: 1 }).limit(limit).toArray();
    return documents.map(toPet);
  }

  async get(petId: bigint): Promise<Pet> {
    const document = await this.#pets.findOne({ _id: storedId(petId) });
    if (!document) throw petNotFound(petId);
    return toPet(document);
  }

  /** Adds a pet with the next id; 422 when its category does not exist. */
  async create(newPet: NewPet): Promise<Pet> {
    if (!(await this.#categoryExists(newPet.categoryId))) throw unknownCategory(newPet.categoryId);
    const document: PetDocument = {
      _id: await nextSequenceValue(this.#db, sequences.pets),
      name: newPet.name,
      categoryId: newPet.categoryId,
      status: newPet.status ?? 'available',
    };
    await this.#pets.insertOne(document);
    if (!(await this.#confirmCategory(document.categoryId))) {
      // The category was deleted after the check: take the pet back rather than orphan it.
      await this.#pets.deleteOne({ _id: document._id });
      throw unknownCategory(document.categoryId);
    }
    return toPet(document);
  }

  /** Replaces every field; a status left out becomes `available`. */
  replace(petId: bigint, newPet: NewPet): Promise<Pet> {
    return this.#write(petId, {
      name: newPet.name,
      categoryId: newPet.categoryId,
      status: newPet.status ?? 'available',
    });
  }

  /** Changes the fields given, keeps the others. */
  async update(petId: bigint, patch: PetPatch): Promise<Pet> {
    const fields: Partial<PetFields> = {};
    if (patch.name !== undefined) fields.name = patch.name;
    if (patch.categoryId !== undefined) fields.categoryId = patch.categoryId;
    if (patch.status !== undefined) fields.status = patch.status;
    if (Object.keys(fields).length === 0) return this.get(petId);
    return this.#write(petId, fields);
  }

  /**
   * The status the store derives from stock, kept only over an older version: a push that was
   * delayed (a stalled process, a retry) never overwrites a newer one. Answers the pet as it is.
   * A status that changes is recorded with its `pet.status_changed` event in the same update,
   * which only matches the pet as it was read (so the event shows the pet as the push left it),
   * and is tried again if another write came in between.
   */
  async setStatus(petId: bigint, status: PetStatus, version: number): Promise<Pet> {
    const _id = storedId(petId);
    for (;;) {
      const pet = await this.#pets.findOne({ _id });
      if (!pet) throw petNotFound(petId);
      if (pet.statusVersion !== undefined && pet.statusVersion >= version) return toPet(pet);
      const pushed = { ...pet, status };
      const sameVersion = {
        _id,
        statusVersion: pet.statusVersion ?? { $exists: false as const },
      };
      if (pet.status === status) {
        const { matchedCount } = await this.#pets.updateOne(sameVersion, {
          $set: { statusVersion: version },
        });
        if (matchedCount === 1) return toPet(pushed);
        continue;
      }
      const { update } = withStatusChanged({ status, statusVersion: version }, pushed);
      const { matchedCount } = await this.#pets.updateOne(
        { ...sameVersion, ...shown(pet) },
        update,
      );
      if (matchedCount === 1) {
        eventWritten(this.#pets, _id);
        return toPet(pushed);
      }
    }
  }

  /** The statuses of those of `petIds` that exist. */
  async statuses(petIds: bigint[]): Promise<{ petId: number; status: PetStatus }[]> {
    const documents = await this.#pets
      .find({ _id: { $in: petIds.map(storedId) } }, { projection: { status: 1 } })
      .toArray();
    return documents.map((document) => ({ petId: document._id, status: document.status }));
  }

  /**
   * Deletes the pet once the events it still carries are handed to the gateway, so that none goes
   * with it; only while it carries just those, else reads it again (a status changed meanwhile).
   */
  async delete(petId: bigint): Promise<void> {
    const _id = storedId(petId);
    for (;;) {
      const pet = await this.#pets.findOne({ _id });
      if (!pet) throw petNotFound(petId);
      const events = this.#events.source.eventsOf(pet);
      if (events.length > 0) {
        await this.#events.send(events).catch((error: unknown) => {
          throw eventsNotHandedOver(petId, error);
        });
      }
      const { deletedCount } = await this.#pets.deleteOne({
        _id,
        pendingEventCount: pet.pendingEventCount ?? { $exists: false },
        ...carrying(events.map(({ id }) => id)),
      });
      if (deletedCount === 1) return;
    }
  }

  async #write(petId: bigint, fields: Partial<PetFields>): Promise<Pet> {
    const _id = storedId(petId);
    const { categoryId } = fields;
    if (categoryId !== undefined && !(await this.#categoryExists(categoryId))) {
      // A missing pet is 404 before its category is 422.
      if (!(await this.#pets.findOne({ _id }, { projection: { _id: 1 } }))) {
        throw petNotFound(petId);
      }
      throw unknownCategory(categoryId);
    }
    const { before, event } = await this.#update(_id, fields);
    if (!before) throw petNotFound(petId);
    if (
      categoryId !== undefined &&
      categoryId !== before.categoryId &&
      !(await this.#confirmCategory(categoryId))
    ) {
      // The new category was deleted after the check: put the pet back as it was.
      await this.#putBack(before, categoryId, event);
      throw unknownCategory(categoryId);
    }
    return toPet({ ...before, ...fields });
  }

  /**
   * Writes the fields and answers the pet as it was, with the id of the `pet.status_changed`
   * event recorded in the same update when the status changed. That update only matches the pet
   * as it was read, so the event shows the pet as this write left it, and is tried again if
   * another write came in between (it matches the fields `before` is read for: the category's
   * confirmation and the undo go by them); a write that keeps the status only matches while it
   * is kept.
   */
  async #update(
    _id: number,
    fields: Partial<PetFields>,
  ): Promise<{ before: PetDocument | null; event?: string }> {
    const { status } = fields;
    if (status === undefined) {
      const before = await this.#pets.findOneAndUpdate(
        { _id },
        { $set: fields },
        { returnDocument: 'before' },
      );
      return { before };
    }
    for (;;) {
      const pet = await this.#pets.findOne({ _id });
      if (!pet) return { before: null };
      if (pet.status === status) {
        const before = await this.#pets.findOneAndUpdate(
          { _id, status },
          { $set: fields },
          { returnDocument: 'before' },
        );
        if (before) return { before };
        continue;
      }
      const { id, update } = withStatusChanged(fields, { ...pet, ...fields });
      const { matchedCount } = await this.#pets.updateOne({ _id, ...shown(pet) }, update);
      if (matchedCount === 1) {
        eventWritten(this.#pets, _id);
        return { before: pet, event: id };
      }
    }
  }

  /**
   * Undoes a write whose category was deleted under it. Its status change goes with it: the event
   * is taken off in the same update if still there, else (already handed over) the status going
   * back is recorded as a change of its own.
   */
  async #putBack(before: PetDocument, categoryId: number, event: string | undefined) {
    const { _id } = before;
    const restored = { name: before.name, categoryId: before.categoryId, status: before.status };
    if (event !== undefined) {
      const { matchedCount } = await this.#pets.updateOne(
        { _id, categoryId, ...carrying([event]) },
        { $set: restored, ...takenOff([event]) },
      );
      if (matchedCount === 1) return;
      await this.#pets.updateOne(
        { _id, categoryId },
        withStatusChanged(restored, { ...before, ...restored }).update,
      );
      eventWritten(this.#pets, _id);
      return;
    }
    await this.#pets.updateOne({ _id, categoryId }, { $set: restored });
  }

  async #categoryExists(categoryId: number): Promise<boolean> {
    const found = await this.#categories.findOne({ _id: categoryId }, { projection: { _id: 1 } });
    return found !== null;
  }

  /** True when the category still exists; moves its revision so a pending delete of it fails. */
  async #confirmCategory(categoryId: number): Promise<boolean> {
    const { matchedCount } = await this.#categories.updateOne(
      { _id: categoryId },
      { $inc: { revision: 1 } },
    );
    return matchedCount === 1;
  }
}

/** The fields of a pet the API shows, to match a pet exactly as it was read. */
function shown({ name, categoryId, status }: PetDocument) {
  return { name, categoryId, status };
}

/**
 * The update that sets `fields` and records the `pet.status_changed` event they make: `pet` as
 * the API shows it after them.
 */
function withStatusChanged(fields: Partial<PetFields>, pet: PetDocument) {
  const event = recordEvent({
    type: 'pet.status_changed',
    timestamp: new Date(),
    data: toPet(pet),
  });
  return { id: event.id, update: { $set: { ...fields, ...event.$set }, $inc: event.$inc } };
}

function toPet(document: PetDocument): Pet {
  return {
    id: document._id,
    name: document.name,
    categoryId: document.categoryId,
    status: document.status,
  };
}
