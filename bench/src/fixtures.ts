import { randomUUID } from 'node:crypto';
import { createPetstoreClient } from '@petstore/contract';
import type { Stack } from '@petstore/stack';

export interface Fixtures {
  petId: number;
  customer: { apiKey: string; accountId: string };
}

/** The answer's body when it has the expected status; otherwise the run stops. */
function bodyOf<Body>(
  res: { status: number; body: unknown },
  status: number,
  what: string,
) {
  if (res.status !== status) {
    throw new Error(
      `[bench] ${what}: ${res.status} ${JSON.stringify(res.body)}`,
    );
  }
  return res.body as Body;
}

/**
 * What the scenarios need, made through the gateway: a pet stocked for every order of a run and
 * a customer's key. The names are new each time, so that stacks sharing one `MONGODB_URI` can
 * each seed.
 */
export async function seed(stack: Stack): Promise<Fixtures> {
  const admin = createPetstoreClient({
    baseUrl: stack.url,
    apiKey: stack.adminApiKey,
  });
  const tag = randomUUID().slice(0, 8);
  const made = await admin.categories.createCategory({
    body: { name: `Bench dogs ${tag}` },
  });
  const category = bodyOf<{ id: number }>(made, 201, 'create a category');
  const pet = await admin.pets.createPet({
    body: { name: 'Rex', categoryId: category.id },
  });
  const petId = bodyOf<{ id: number }>(pet, 201, 'create a pet').id;
  // The most a stock may hold, as the contract bounds it.
  const quantity = 1_000_000;
  const params = { petId: String(petId) };
  bodyOf(
    await admin.inventory.setInventory({ params, body: { quantity } }),
    200,
    'stock it',
  );
  const signUp = await createPetstoreClient({
    baseUrl: stack.url,
  }).accounts.createAccount({
    body: { email: `bench.${tag}@example.com`, name: 'Bench' },
  });
  const account = bodyOf<{ id: string; apiKey: string }>(
    signUp,
    201,
    'sign a customer up',
  );
  return { petId, customer: { apiKey: account.apiKey, accountId: account.id } };
}

/** An admin webhook on `order.created` delivering to `url`. */
export async function subscribeToOrders(
  stack: Stack,
  url: string,
): Promise<void> {
  const admin = createPetstoreClient({
    baseUrl: stack.url,
    apiKey: stack.adminApiKey,
  });
  const made = await admin.webhooks.createWebhook({
    body: { url, events: ['order.created'] },
  });
  bodyOf(made, 201, 'create a webhook');
}
