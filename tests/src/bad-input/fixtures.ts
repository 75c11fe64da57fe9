import { expect, vi } from 'vitest';
import { ok, petInStock } from '../support/catalogue.js';
import { databaseNames } from '../support/databases.js';
import type { TestStack } from '../support/test-stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

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
  /** The customer's webhook, to a loopback receiver that answers 200 (private URLs allowed). */
  webhookId: string;
  webhookUrl: string;
  /** A delivered delivery of that webhook (of the customer's order). */
  deliveryId: string;
  receiver: WebhookReceiver;
  customer: { apiKey: string; accountId: string; email: string; keyId: string };
  adminApiKey: string;
}

/**
 * Creates the fixtures through the API, then waits until the background work they start (the
 * store's status push, the message worker, the webhook deliveries) is done, so the databases hold
 * still afterwards. The stack must allow private webhook URLs; the caller stops the receiver.
 */
export async function createFixtures(
  api: TestStack,
  name = 'Dogs',
): Promise<Fixtures> {
  const { admin } = api;
  const categoryId = ok(
    await admin.categories.createCategory({ body: { name } }),
    201,
  ).body.id;
  const stock = 10;
  // One more than `stock`: the customer's order takes one.
  const petId = await petInStock(admin, categoryId, stock + 1);

  const email = `bad-input.${name.toLowerCase()}.${Date.now()}@example.com`;
  const { apiKey, accountId } = await api.signUp(email);
  const shopper = api.client(apiKey);
  const [key] = ok(await shopper.accounts.listKeys(), 200).body;
  if (!key) throw new Error('fixture: the customer has no key');
  const receiver = await WebhookReceiver.start();
  const webhookId = ok(
    await shopper.webhooks.createWebhook({
      body: {
        url: receiver.url,
        events: ['order.created', 'message.delivered'],
      },
    }),
    201,
  ).body.id;
  const orderId = ok(
    await shopper.orders.placeOrder({ body: { petId, quantity: 1 } }),
    201,
  ).body.id;
  if (orderId === undefined) throw new Error('fixture: the order has no id');
  const messageId = ok(
    await shopper.messages.sendMessage({ body: { message: 'Hello' } }),
    202,
  ).body.id;

  // Hooks cannot use expect.poll, which needs a test.
  await vi.waitFor(
    async () => {
      const databases = await api.databases();
      const [message] = await databases.find(
        databaseNames.gateway,
        'messages',
        {
          _id: messageId,
        },
      );
      const deliveries = await databases.find(
        databaseNames.gateway,
        'webhook_deliveries',
        {
          webhookId,
        },
      );
      // The worker lets go of the webhook after its last delivery is recorded.
      const [webhook] = await databases.find(
        databaseNames.gateway,
        'webhooks',
        { _id: webhookId },
      );
      expect(
        {
          message: message?.status as unknown,
          work: await databases.pendingWork(),
          deliveries: deliveries.map((delivery) => delivery.status as unknown),
          leased: webhook?.leaseOwner !== undefined,
        },
        'fixture: a message, status push, event or webhook delivery is still pending',
      ).toEqual({
        message: 'delivered',
        work: { pushes: 0, events: 0 },
        deliveries: ['delivered', 'delivered'],
        leased: false,
      });
    },
    { timeout: 20_000, interval: 100 },
  );
  const [delivery] = ok(
    await shopper.webhooks.listWebhookDeliveries({ params: { webhookId } }),
    200,
  ).body;
  if (!delivery) throw new Error('fixture: the webhook has no delivery');
  return {
    categoryId,
    petId,
    stock,
    orderId,
    messageId,
    webhookId,
    webhookUrl: receiver.url,
    deliveryId: delivery.id,
    receiver,
    customer: { apiKey, accountId, email, keyId: key.id },
    adminApiKey: api.stack.adminApiKey,
  };
}
