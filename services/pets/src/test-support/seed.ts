import type { Category, NewCategory, NewPet, Pet } from '@petstore/contract';
import type { Answer, ServedPets } from './pets-service.js';

function expectStatus(answer: Answer, status: number, what: string): void {
  if (answer.status !== status) {
    throw new Error(
      `${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`,
    );
  }
}

/** Adds a category as an admin would. */
export async function seedCategory(
  pets: ServedPets,
  category: NewCategory | string,
): Promise<Category> {
  const body = typeof category === 'string' ? { name: category } : category;
  const answer = await pets.call('POST', '/v1/categories', { body });
  expectStatus(answer, 201, `seeding category ${body.name}`);
  return answer.body as Category;
}

/** Adds a pet as an admin would. */
export async function seedPet(pets: ServedPets, pet: NewPet): Promise<Pet> {
  const answer = await pets.call('POST', '/v1/pets', { body: pet });
  expectStatus(answer, 201, `seeding pet ${pet.name}`);
  return answer.body as Pet;
}

/** The `<…>` of a `Link: <…>; rel="next"` header, or undefined without one. */
export function nextLink(headers: Headers): string | undefined {
  return /^<([^>]+)>; rel="next"$/.exec(headers.get('link') ?? '')?.[1];
}
