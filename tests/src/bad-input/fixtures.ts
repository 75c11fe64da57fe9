import type { PetstoreClient } from '@petstore/contract';
import { expect, vi } from 'vitest';
import type { TestStack } from '../support/test-stack.js';
import { databaseNames } from '../support/databases.js';

/** One of everything a path can name, so that a request fails for its input, not for a 404. */
export interface Fixtures {
  categoryId: number;
  /** A pet of that category, with stock. */
  petId: number;
  stock: number;
  /** An open order of the customer's, for that pet. */
  orderId: number;
  /** A delivered message of the customer's. */
  messageId: string;
  customer: { apiKey: string; accountId: string; email: string; keyId: string };
  adminApiKey: string;
}

function expectStatus<T extends { status: number; body: unknown }>(answer: T, status: number): T {
  if (answer.status !== status) {
    throw new Error(`fixture: expected ${status}, got ${answer.status} ${JSON.stringify(answer)}`);
  }
  return answer;
}

function bodyOf<T>(answer: { status: number; body: unknown }, status: number): T {
  return expectStatus(answer, status).body as T;
}

/**
 * Creates the fixtures through the API, then waits until the background work they start (the
 * store's status push, the message worker) is done, so the databases hold still afterwards.
 */
export async function createFixtures(api: TestStack, name = 'Dogs'): Promise<Fixtures> {
  const admin: PetstoreClient = api.admin;
  const { id: categoryId } = bodyOf<{ id: number }>(
    await admin.categories.createCategory({ body: { name } }),
    201,
  );
  const { id: petId } = bodyOf<{ id: number }>(
    await admin.pets.createPet({ body: { name: 'Rex', categoryId } }),
    201,
  );
  const stock = 10;
  expectStatus(
    await admin.inventory.setInventory({
      params: { petId: String(petId) },
      body: { quantity: stock + 1 },
    }),
    200,
  );

  const email = `bad-input.${name.toLowerCase()}.${Date.now()}@example.com`;
  const { apiKey, accountId } = await api.signUp(email);
  const shopper = api.client(apiKey);
  const [key] = bodyOf<{ id: string }[]>(await shopper.accounts.listKeys(), 200);
  if (!key) throw new Error('fixture: the customer has no key');
  const { id: orderId } = bodyOf<{ id: number }>(
    await shopper.orders.placeOrder({ body: { petId, quantity: 1 } }),
    201,
  );
  const { id: messageId } = bodyOf<{ id: string }>(
    await shopper.messages.sendMessage({ body: { message: 'Hello' } }),
    202,
  );

  // Hooks cannot use expect.poll, which needs a test.
  await vi.waitFor(
    async () => {
      const databases = await api.databases();
      const [message] = await databases.find(databaseNames.gateway, 'messages', {
        _id: messageId,
      });
      const outbox = await databases.find(databaseNames.store, 'outbox', {});
      expect(
        { message: message?.status as unknown, outbox: outbox.length },
        'fixture: the message or the status push is still pending',
      ).toEqual({ message: 'delivered', outbox: 0 });
    },
    { timeout: 20_000, interval: 100 },
  );
  return {
    categoryId,
    petId,
    stock,
    orderId,
    messageId,
    customer: { apiKey, accountId, email, keyId: key.id },
    adminApiKey: api.stack.adminApiKey,
  };
}
