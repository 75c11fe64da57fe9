import { randomUUID } from 'node:crypto';
import { createPetstoreClient } from '@petstore/contract';
import type { Stack } from '@petstore/stack';

interface Customer {
  apiKey: string;
  accountId: string;
}

export interface Fixtures {
  petId: number;
  /** Who sends the measured requests. */
  customer: Customer;
  /** Another customer, whose slow bodies (s) must not slow the first one. */
  otherCustomer: Customer;
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

/** A customer signed up through the gateway, with their key. */
async function signUp(stack: Stack, email: string): Promise<Customer> {
  const signedUp = await createPetstoreClient({
    baseUrl: stack.url,
  }).accounts.createAccount({ body: { email, name: 'Bench' } });
  const account = bodyOf<{ id: string; apiKey: string }>(
    signedUp,
    201,
    'sign a customer up',
  );
  return { apiKey: account.apiKey, accountId: account.id };
}

/**
 * What the scenarios need, made through the gateway: a pet stocked for every order of a run and
 * two customers' keys. The names are new each time, so that stacks sharing one `MONGODB_URI` can
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
  return {
    petId,
    customer: await signUp(stack, `bench.${tag}@example.com`),
    otherCustomer: await signUp(stack, `bench.other.${tag}@example.com`),
  };
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
