import { randomUUID } from 'node:crypto';
import { createPetstoreClient } from '@petstore/contract';
import type { Stack } from '@petstore/stack';

/** The most a pet's stock may hold (the contract's bound): enough orders for any run. */
export const BENCH_STOCK = 1_000_000;

/** The databases of the pets and store services, as their configuration names them. */
export const DATABASE_NAMES = { pets: 'petstore_pets', store: 'petstore_store' } as const;

export interface Fixtures {
  categoryId: number;
  petId: number;
  customer: { apiKey: string; accountId: string };
}

function expectStatus<Res extends { status: number; body: unknown }, Status extends number>(
  res: Res,
  status: Status,
  what: string,
): Extract<Res, { status: Status }> {
  if (res.status !== status) {
    throw new Error(
      `[bench] ${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`,
    );
  }
  return res as Extract<Res, { status: Status }>;
}

/**
 * What the scenarios need, made through the gateway: a pet in stock and a customer's key. The
 * names are new each time, so that stacks sharing one `MONGODB_URI` can each seed.
 */
export async function seed(stack: Stack): Promise<Fixtures> {
  const admin = createPetstoreClient({ baseUrl: stack.url, apiKey: stack.adminApiKey });
  const tag = randomUUID().slice(0, 8);
  const category = expectStatus(
    await admin.categories.createCategory({ body: { name: `Bench dogs ${tag}` } }),
    201,
    'create a category',
  );
  const petId = await createPet(stack, category.body.id, 'Rex');
  await restock(stack, petId);
  const account = expectStatus(
    await createPetstoreClient({ baseUrl: stack.url }).accounts.createAccount({
      body: { email: `bench.${tag}@example.com`, name: 'Bench' },
    }),
    201,
    'sign a customer up',
  );
  return {
    categoryId: category.body.id,
    petId,
    customer: { apiKey: account.body.apiKey, accountId: account.body.id },
  };
}

/** A pet in the category, made through the gateway with the admin key; its id. */
export async function createPet(stack: Stack, categoryId: number, name: string): Promise<number> {
  const admin = createPetstoreClient({ baseUrl: stack.url, apiKey: stack.adminApiKey });
  const pet = expectStatus(
    await admin.pets.createPet({ body: { name, categoryId } }),
    201,
    'create a pet',
  );
  return pet.body.id;
}

/** Sets the pet's stock through the gateway with the admin key. */
export async function setStock(stack: Stack, petId: number, quantity: number): Promise<void> {
  const admin = createPetstoreClient({ baseUrl: stack.url, apiKey: stack.adminApiKey });
  expectStatus(
    await admin.inventory.setInventory({ params: { petId: String(petId) }, body: { quantity } }),
    200,
    'set the stock',
  );
}

/** Fills the pet's stock up again, so that orders never run out during a scenario. */
export function restock(stack: Stack, petId: number): Promise<void> {
  return setStock(stack, petId, BENCH_STOCK);
}

/** An admin webhook on `order.created` delivering to `url`. */
export async function subscribeToOrders(stack: Stack, url: string): Promise<void> {
  const admin = createPetstoreClient({ baseUrl: stack.url, apiKey: stack.adminApiKey });
  expectStatus(
    await admin.webhooks.createWebhook({ body: { url, events: ['order.created'] } }),
    201,
    'create a webhook',
  );
}
