import type { PetstoreClient } from '@petstore/contract';

/** The answer of a typed client call, narrowed to `status`; anything else throws with the answer. */
export function ok<T extends { status: number }, S extends T['status']>(
  res: T,
  status: S,
): Extract<T, { status: S }> {
  if (res.status !== status)
    throw new Error(`expected ${status}, got ${JSON.stringify(res)}`);
  return res as Extract<T, { status: S }>;
}

/** As the admin: a new pet in the category, `quantity` of which are in stock; its id. */
export async function petInStock(
  admin: PetstoreClient,
  categoryId: number,
  quantity: number,
  name = 'Rex',
): Promise<number> {
  const pet = ok(
    await admin.pets.createPet({ body: { name, categoryId } }),
    201,
  );
  const petId = pet.body.id;
  ok(
    await admin.inventory.setInventory({
      params: { petId: String(petId) },
      body: { quantity },
    }),
    200,
  );
  return petId;
}

let categories = 0;

/** As the admin: a new category with one pet in it, `quantity` of which are in stock. */
export async function stockedPet(
  admin: PetstoreClient,
  quantity = 100,
): Promise<{ categoryId: number; petId: number }> {
  const name = `Category ${++categories} ${Date.now()}`;
  const category = ok(
    await admin.categories.createCategory({ body: { name } }),
    201,
  );
  const categoryId = category.body.id;
  return { categoryId, petId: await petInStock(admin, categoryId, quantity) };
}
