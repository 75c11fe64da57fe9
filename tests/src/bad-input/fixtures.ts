import { expect, vi } from 'vitest';
import { ok, petInStock } from '../support/catalogue.js';
import { databaseNames } from '../support/databases.js';
import type { TestStack } from '../support/test-stack.js';

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

/**
 * Creates the fixtures through the API, then waits until the background work they start (the
 * store's status push, the message worker) is done, so the databases hold still afterwards.
 */
export async function createFixtures(api: TestStack, name = 'Dogs'): Promise<Fixtures> {
  const { admin } = api;
  const categoryId = ok(await admin.categories.createCategory({ body: { name } }), 201).body.id;
  const stock = 10;
  // One more than `stock`: the customer's order takes one.
  const petId = await petInStock(admin, categoryId, stock + 1);

  const email = `bad-input.${name.toLowerCase()}.${Date.now()}@example.com`;
  const { apiKey, accountId } = await api.signUp(email);
  const shopper = api.client(apiKey);
  const [key] = ok(await shopper.accounts.listKeys(), 200).body;
  if (!key) throw new Error('fixture: the customer has no key');
  const orderId = ok(await shopper.orders.placeOrder({ body: { petId, quantity: 1 } }), 201).body
    .id;
  if (orderId === undefined) throw new Error('fixture: the order has no id');
  const messageId = ok(await shopper.messages.sendMessage({ body: { message: 'Hello' } }), 202).body
    .id;

  // Hooks cannot use expect.poll, which needs a test.
  await vi.waitFor(
    async () => {
      const databases = await api.databases();
      const [message] = await databases.find(databaseNames.gateway, 'messages', {
        _id: messageId,
      });
      const outbox = await databases.find(databaseNames.store, 'outbox', { pending: true });
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
