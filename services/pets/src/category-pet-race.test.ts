import { describe, expect } from 'vitest';
import {
  it,
  type Answer,
  type ServedPets,
} from './test-support/pets-service.js';
import { seedCategory, seedPet } from './test-support/seed.js';

const ROUNDS = 12;
const WRITERS = 8;

/**
 * What must hold once a delete of a category raced with pet writes pointing at it: either the
 * category is gone and no pet uses it (every such write was refused with 422), or the delete was
 * refused with 409 and the category is still there. Each write answered 200/201 is stored.
 */
async function expectConsistent(
  pets: ServedPets,
  categoryId: number,
  deletion: Answer,
  writes: Answer[],
): Promise<void> {
  const using = await pets.db.collection('pets').countDocuments({ categoryId });
  const category = await pets.db
    .collection('categories')
    .findOne({ _id: categoryId as never });
  const accepted = writes.filter(
    (write) => write.status === 200 || write.status === 201,
  );
  const refused = writes.filter((write) => write.status === 422);
  expect(accepted.length + refused.length).toBe(writes.length);
  if (deletion.status === 204) {
    expect(category).toBeNull();
    expect(using).toBe(0);
    expect(accepted).toEqual([]);
  } else {
    expect(deletion.body).toMatchObject({ code: 'category_in_use' });
    expect(category).not.toBeNull();
    expect(using).toBe(accepted.length);
  }
}

describe('deleting a category while pets are written into it', () => {
  it('never leaves a pet added to a deleted category', async ({ pets }) => {
    for (let round = 1; round <= ROUNDS; round++) {
      const { id } = await seedCategory(pets, `Race ${round}`);
      const writes = Array.from({ length: WRITERS }, (_, n) =>
        pets.call('POST', '/v1/pets', {
          body: { name: `Pet ${round}.${n}`, categoryId: id },
        }),
      );
      // The delete starts while the first writes are under way, or once one has been answered.
      if (round % 2 === 0) await writes[0];
      const deletion = pets.call('DELETE', `/v1/categories/${id}`);
      const [deleted, ...written] = await Promise.all([deletion, ...writes]);
      await expectConsistent(pets, id, deleted, written);
    }
  });

  it('never leaves a pet moved into a deleted category', async ({ pets }) => {
    const home = await seedCategory(pets, 'Home');
    const movers = [];
    for (let n = 0; n < WRITERS; n++)
      movers.push(
        await seedPet(pets, { name: `Mover ${n}`, categoryId: home.id }),
      );
    for (let round = 1; round <= ROUNDS; round++) {
      const { id } = await seedCategory(pets, `Target ${round}`);
      const writes = movers.map((pet, n) =>
        n % 2 === 0
          ? pets.call('PATCH', `/v1/pets/${pet.id}`, {
              body: { categoryId: id },
            })
          : pets.call('PUT', `/v1/pets/${pet.id}`, {
              body: { name: pet.name, categoryId: id },
            }),
      );
      const deletion = pets.call('DELETE', `/v1/categories/${id}`);
      const [deleted, ...written] = await Promise.all([deletion, ...writes]);
      await expectConsistent(pets, id, deleted, written);
      // Refused moves left their pets where they were.
      for (const [n, write] of written.entries()) {
        if (write.status === 422) {
          expect(
            (await pets.call('GET', `/v1/pets/${movers[n]!.id}`)).body,
          ).toMatchObject({
            categoryId: home.id,
          });
        }
      }
      // Everybody goes home for the next round.
      for (const pet of movers) {
        await pets.call('PATCH', `/v1/pets/${pet.id}`, {
          body: { categoryId: home.id },
        });
      }
    }
  });
});
