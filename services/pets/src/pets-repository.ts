import {
  storedId,
  type NewPet,
  type Pet,
  type PetPatch,
  type PetStatus,
  type RecordedEvent,
} from '@petstore/contract';
import {
  carrying,
  findPage,
  nextSequenceValue,
  recordEvent,
  takenOff,
  toRecordedEvent,
  type IdPage,
  type PendingEvent,
} from '@petstore/service-kit';
import type { Filter } from 'mongodb';
import { notFound, unknownCategory } from './errors.js';
import { CatalogueCollections, exists, type PetDocument } from './storage.js';

type PetFields = Partial<Pick<PetDocument, 'name' | 'categoryId' | 'status' | 'statusVersion'>>;

/** A pet as a write left it, with the events the write recorded in it. */
export interface WrittenPet {
  pet: Pet;
  events: RecordedEvent[];
}

/**
 * A write that points a pet at a category ends by confirming it (`#confirmCategory`), which makes
 * a concurrent delete of the category fail; when the category is gone, the write is undone (422).
 */
export class PetsRepository extends CatalogueCollections {
  async list(
    { status, categoryId }: { status?: PetStatus[]; categoryId?: bigint },
    page: IdPage,
  ): Promise<Pet[]> {
    const filter: Filter<PetDocument> = {};
    if (status !== undefined) filter.status = { $in: status };
    if (categoryId !== undefined) filter.categoryId = storedId(categoryId);
    return (await findPage(this.pets, filter, page)).map(toPet);
  }

  /** The pet as stored, with the events it carries. */
  async document(petId: bigint): Promise<PetDocument> {
    const document = await this.pets.findOne({ _id: storedId(petId) });
    if (!document) throw notFound('pet', petId);
    return document;
  }

  async get(petId: bigint): Promise<Pet> {
    return toPet(await this.document(petId));
  }

  async create({ name, categoryId, status = 'available' }: NewPet): Promise<Pet> {
    if (!(await exists(this.categories, { _id: categoryId }))) throw unknownCategory(categoryId);
    const _id = await nextSequenceValue(this.db, 'pets');
    const document: PetDocument = { _id, name, categoryId, status };
    await this.pets.insertOne(document);
    if (!(await this.#confirmCategory(categoryId))) {
      await this.pets.deleteOne({ _id });
      throw unknownCategory(categoryId);
    }
    return toPet(document);
  }

  replace(petId: bigint, { name, categoryId, status = 'available' }: NewPet): Promise<WrittenPet> {
    return this.#write(petId, { name, categoryId, status });
  }

  async update(petId: bigint, patch: PetPatch): Promise<WrittenPet> {
    const fields = Object.fromEntries(
      Object.entries(patch).filter(([, value]) => value !== undefined),
    );
    if (Object.keys(fields).length === 0) return { pet: await this.get(petId), events: [] };
    return this.#write(petId, fields);
  }

  /** The status the store derives from stock, kept only over an older version. */
  async setStatus(petId: bigint, status: PetStatus, version: number): Promise<WrittenPet> {
    for (;;) {
      const pet = await this.document(petId);
      if (pet.statusVersion !== undefined && pet.statusVersion >= version) {
        return { pet: toPet(pet), events: [] };
      }
      const guard = { statusVersion: pet.statusVersion ?? { $exists: false } };
      const { matched, event } = await this.#change(pet, { status, statusVersion: version }, guard);
      if (matched) return { pet: toPet({ ...pet, status }), events: event ? [event] : [] };
    }
  }

  async statuses(petIds: bigint[]): Promise<{ petId: number; status: PetStatus }[]> {
    const documents = await this.pets
      .find({ _id: { $in: petIds.map(storedId) } }, { projection: { status: 1 } })
      .toArray();
    return documents.map(({ _id, status }) => ({ petId: _id, status }));
  }

  /** Deletes the pet only while it carries just the events it carried when read. */
  async deleteAsRead(pet: PetDocument): Promise<boolean> {
    const { deletedCount } = await this.pets.deleteOne({
      _id: pet._id,
      pendingEventCount: pet.pendingEventCount ?? { $exists: false },
      ...carrying(Object.keys(pet.pendingEvents ?? {})),
    });
    return deletedCount === 1;
  }

  async #write(petId: bigint, fields: PetFields): Promise<WrittenPet> {
    const { categoryId } = fields;
    if (categoryId !== undefined && !(await exists(this.categories, { _id: categoryId }))) {
      await this.document(petId); // A missing pet is 404 before its category is 422.
      throw unknownCategory(categoryId);
    }
    for (;;) {
      const before = await this.document(petId);
      const { matched, event } = await this.#change(before, fields);
      if (!matched) continue;
      const moved = categoryId !== undefined && categoryId !== before.categoryId;
      if (moved && !(await this.#confirmCategory(categoryId))) {
        await this.#putBack(before, categoryId, event?.id);
        throw unknownCategory(categoryId);
      }
      return { pet: toPet({ ...before, ...fields }), events: event ? [event] : [] };
    }
  }

  /**
   * Writes `fields` over `pet` only while it is as it was read, recording `pet.status_changed` in
   * the same update when the status changes, so the event shows the pet as this write left it.
   */
  async #change(pet: PetDocument, fields: PetFields, guard: Filter<PetDocument> = {}) {
    const filter = { ...guard, _id: pet._id, ...shown(pet) };
    if (fields.status === undefined || fields.status === pet.status) {
      const { matchedCount } = await this.pets.updateOne(filter, { $set: fields });
      return { matched: matchedCount === 1 };
    }
    const { event, update } = withStatusChanged(fields, { ...pet, ...fields });
    const { matchedCount } = await this.pets.updateOne(filter, update);
    return { matched: matchedCount === 1, event };
  }

  /**
   * Undoes a write whose category was deleted under it. Its event is taken off in the same update
   * if still there, else (already sent) the status going back is recorded as a change of its own.
   */
  async #putBack(before: PetDocument, categoryId: number, event: string | undefined) {
    const { _id } = before;
    const restored = shown(before);
    if (event !== undefined) {
      const { matchedCount } = await this.pets.updateOne(
        { _id, categoryId, ...carrying([event]) },
        { $set: restored, ...takenOff([event]) },
      );
      if (matchedCount === 1) return;
    }
    await this.pets.updateOne(
      { _id, categoryId },
      event === undefined ? { $set: restored } : withStatusChanged(restored, before).update,
    );
  }

  /** True when the category still exists; moves its revision so a pending delete of it fails. */
  async #confirmCategory(_id: number): Promise<boolean> {
    const { matchedCount } = await this.categories.updateOne({ _id }, { $inc: { revision: 1 } });
    return matchedCount === 1;
  }
}

/** The fields the API shows, to match a pet exactly as it was read. */
function shown({ name, categoryId, status }: PetDocument) {
  return { name, categoryId, status };
}

/** The update that sets `fields` and records the `pet.status_changed` of `pet` (after them). */
function withStatusChanged(fields: PetFields, pet: PetDocument) {
  const data = toPet(pet);
  const changed: PendingEvent = { type: 'pet.status_changed', timestamp: new Date(), data };
  const { id, $set, $inc } = recordEvent(changed);
  const event = toRecordedEvent(id, changed, data);
  return { event, update: { $set: { ...fields, ...$set }, $inc } };
}

function toPet(document: PetDocument): Pet {
  return { id: document._id, ...shown(document) };
}
