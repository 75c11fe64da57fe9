import { createPetstoreClient } from '@petstore/contract';
import type { Stack } from '@petstore/stack';

/** The most a pet's stock may hold (the contract's bound): enough orders for any run. */
export const BENCH_STOCK = 1_000_000;

export interface Fixtures {
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

/** What the scenarios need, made through the gateway: a pet in stock and a customer's key. */
export async function seed(stack: Stack): Promise<Fixtures> {
  const admin = createPetstoreClient({ baseUrl: stack.url, apiKey: stack.adminApiKey });
  const category = expectStatus(
    await admin.categories.createCategory({ body: { name: 'Bench dogs' } }),
    201,
    'create a category',
  );
  const pet = expectStatus(
    await admin.pets.createPet({ body: { name: 'Rex', categoryId: category.body.id } }),
    201,
    'create a pet',
  );
  await restock(stack, pet.body.id);
  const account = expectStatus(
    await createPetstoreClient({ baseUrl: stack.url }).accounts.createAccount({
      body: { email: 'bench@example.com', name: 'Bench' },
    }),
    201,
    'sign a customer up',
  );
  return {
    petId: pet.body.id,
    customer: { apiKey: account.body.apiKey, accountId: account.body.id },
  };
}

/** Fills the pet's stock up again, so that orders never run out during a scenario. */
export async function restock(stack: Stack, petId: number): Promise<void> {
  const admin = createPetstoreClient({ baseUrl: stack.url, apiKey: stack.adminApiKey });
  expectStatus(
    await admin.inventory.setInventory({
      params: { petId: String(petId) },
      body: { quantity: BENCH_STOCK },
    }),
    200,
    'set the stock',
  );
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
