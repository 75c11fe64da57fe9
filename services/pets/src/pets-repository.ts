import { storedId, type Pet, type PetStatus } from '@petstore/contract';
import {
  findPage,
  nextSequenceValue,
  type IdPage,
  type Session,
} from '@petstore/service-kit';
import type { Filter } from 'mongodb';
import { CatalogueCollections, notFound, type PetDocument } from './storage.js';

export type PetFields = Partial<
  Pick<PetDocument, 'name' | 'categoryId' | 'status' | 'statusVersion'>
>;

export class PetsRepository extends CatalogueCollections {
  nextId(): Promise<number> {
    return nextSequenceValue(this.db, 'pets');
  }

  async list(
    { status, categoryId }: { status?: PetStatus[]; categoryId?: bigint },
    page: IdPage,
  ): Promise<Pet[]> {
    const filter: Filter<PetDocument> = {};
    if (status !== undefined) filter.status = { $in: status };
    if (categoryId !== undefined) filter.categoryId = storedId(categoryId);
    return (await findPage(this.pets, filter, page)).map(toPet);
  }

  async get(petId: bigint): Promise<Pet> {
    const document = await this.find(petId);
    if (!document) throw notFound('pet', petId);
    return toPet(document);
  }

  find(petId: bigint, session?: Session) {
    return this.pets.findOne({ _id: storedId(petId) }, { session });
  }

  async insert(document: PetDocument, session: Session): Promise<void> {
    await this.pets.insertOne(document, { session });
  }

  /** The pet after `fields` were set; null when there is no such pet. */
  update(petId: bigint, fields: PetFields, session: Session) {
    return this.pets.findOneAndUpdate(
      { _id: storedId(petId) },
      { $set: fields },
      { returnDocument: 'after', session },
    );
  }

  async delete(petId: bigint): Promise<boolean> {
    const { deletedCount } = await this.pets.deleteOne({
      _id: storedId(petId),
    });
    return deletedCount === 1;
  }

  async statuses(
    petIds: bigint[],
  ): Promise<{ petId: number; status: PetStatus }[]> {
    const documents = await this.pets
      .find(
        { _id: { $in: petIds.map(storedId) } },
        { projection: { status: 1 } },
      )
      .toArray();
    return documents.map(({ _id, status }) => ({ petId: _id, status }));
  }
}

export function toPet({ _id, name, categoryId, status }: PetDocument): Pet {
  return { id: _id, name, categoryId, status };
}
