import {
  WebhookEventSchema,
  type PetstoreClient,
  type WebhookEventType,
} from '@petstore/contract';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ok, stockedPet } from '../support/catalogue.js';
import { testStackForFile } from '../support/stack-for-file.js';
import { unthrottled } from '../support/test-stack.js';
import { WebhookReceiver, type Receipt } from '../support/webhook-receiver.js';

// Loopback receivers need WEBHOOK_ALLOW_PRIVATE_URLS; retries come within seconds, not hours,
// and so does the worker's recovery from a failed step (its poll and a lease left behind).
const stack = testStackForFile({
  ...unthrottled,
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_RETRY_DELAYS_MS: '300,600,1200,2400,4800,9600',
  WEBHOOK_POLL_MS: '1000',
  WEBHOOK_LEASE_MS: '5000',
});

const everyType: WebhookEventType[] = [
  'order.created',
  'order.completed',
  'order.cancelled',
  'message.delivered',
  'pet.status_changed',
  'inventory.updated',
];

const receivers: WebhookReceiver[] = [];
async function receiver(): Promise<WebhookReceiver> {
  const started = await WebhookReceiver.start();
  receivers.push(started);
  return started;
}

const subscriptions: { api: PetstoreClient; webhookId: string }[] = [];
async function subscribe(
  api: PetstoreClient,
  url: string,
  events: WebhookEventType[],
) {
  const created = ok(
    await api.webhooks.createWebhook({ body: { url, events } }),
    201,
  ).body;
  subscriptions.push({ api, webhookId: created.id });
  return created;
}

// Each test's webhooks and receivers go with it, so that no test hears of another's events.
afterEach(async () => {
  for (const { api, webhookId } of subscriptions.splice(0)) {
    ok(await api.webhooks.deleteWebhook({ params: { webhookId } }), 204);
  }
  await Promise.all(receivers.splice(0).map((started) => started.down()));
});

/** The receipt's event, once its signature verified with `secret` (throws otherwise). */
function verified(secret: string, { headers, body }: Receipt) {
  const plain = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, String(value)]),
  );
  return WebhookEventSchema.parse(new Webhook(secret).verify(body, plain));
}

let customer: { api: PetstoreClient; accountId: string };
beforeAll(async () => {
  customer = await stack.signUp();
});

describe('webhooks through the gateway', () => {
  it('deliver every event type, signed so that a Standard Webhooks library verifies it', async () => {
    const adminHooks = await receiver();
    const customerHooks = await receiver();
    const adminHook = await subscribe(stack.admin, adminHooks.url, everyType);
    const customerHook = await subscribe(customer.api, customerHooks.url, [
      'order.created',
      'order.completed',
      'order.cancelled',
      'message.delivered',
    ]);

    const { categoryId } = await stockedPet(stack.admin, 1);
    const pet = ok(
      await stack.admin.pets.createPet({
        body: { name: 'Hooked', categoryId, status: 'sold' },
      }),
      201,
    ).body;
    const petId = pet.id;
    ok(
      await stack.admin.inventory.setInventory({
        params: { petId: String(petId) },
        body: { quantity: 2 },
      }),
      200,
    );
    // Stock makes the sold pet available: the store's push changes its status.
    await expect
      .poll(() =>
        adminHooks.events('pet.status_changed').map(({ data }) => data.status),
      )
      .toEqual(['available']);
    const placed = ok(
      await customer.api.orders.placeOrder({ body: { petId, quantity: 1 } }),
      201,
    );
    const orderId = String(placed.body.id);
    const completed = ok(
      await stack.admin.orders.updateOrder({
        params: { orderId },
        body: { complete: true },
      }),
      200,
    );
    const second = ok(
      await customer.api.orders.placeOrder({ body: { petId, quantity: 1 } }),
      201,
    );
    ok(
      await customer.api.orders.cancelOrder({
        params: { orderId: String(second.body.id) },
      }),
      204,
    );
    const message = ok(
      await customer.api.messages.sendMessage({ body: { message: 'hi' } }),
      202,
    );

    await expect
      .poll(() => new Set(adminHooks.events().map(({ type }) => type)).size, {
        timeout: 20_000,
      })
      .toBe(everyType.length);
    // Two orders placed, one completed, one cancelled, one message.
    await expect
      .poll(() => customerHooks.events().length, { timeout: 20_000 })
      .toBe(5);

    const events = adminHooks.receipts.map((receipt) =>
      verified(adminHook.secret, receipt),
    );
    for (const event of events) {
      expect(
        adminHooks.receipts.find(({ body }) => body.includes(event.id))
          ?.headers['webhook-id'],
      ).toBe(event.id);
    }
    const byType = (type: WebhookEventType) =>
      events.filter((event) => event.type === type);
    expect(byType('order.created').map(({ data }) => data)).toContainEqual(
      placed.body,
    );
    expect(byType('order.completed').map(({ data }) => data)).toEqual([
      completed.body,
    ]);
    expect(byType('order.cancelled').map(({ data }) => data)).toEqual([
      { ...second.body, complete: false },
    ]);
    expect(byType('message.delivered').map(({ data }) => data)).toEqual([
      { ...message.body, status: 'delivered' },
    ]);
    expect(byType('inventory.updated').map(({ data }) => data)).toContainEqual({
      petId,
      quantity: 2,
      status: 'available',
    });
    expect(byType('pet.status_changed')[0]?.data).toEqual({
      ...pet,
      status: 'available',
    });

    // The customer's webhook hears of its own orders and messages only, signed with its secret.
    const own = customerHooks.receipts.map((receipt) =>
      verified(customerHook.secret, receipt),
    );
    expect(own.map(({ type }) => type).sort()).toEqual(
      [
        'message.delivered',
        'order.cancelled',
        'order.completed',
        'order.created',
        'order.created',
      ].sort(),
    );
    expect(() =>
      verified(adminHook.secret, customerHooks.receipts[0] as Receipt),
    ).toThrow();
  });

  it('retry a receiver answering 500 three times, then deliver on the 4th attempt with the same id', async () => {
    const hooks = await receiver();
    hooks.answer(500, 500, 500);
    const hook = await subscribe(customer.api, hooks.url, [
      'message.delivered',
    ]);
    ok(
      await customer.api.messages.sendMessage({ body: { message: 'retried' } }),
      202,
    );

    await expect.poll(() => hooks.receipts.length, { timeout: 30_000 }).toBe(4);
    const ids = new Set(
      hooks.receipts.map(({ headers }) => headers['webhook-id']),
    );
    expect(ids.size).toBe(1);
    await expect
      .poll(async () => {
        const log = ok(
          await customer.api.webhooks.listWebhookDeliveries({
            params: { webhookId: hook.id },
          }),
          200,
        ).body;
        return log.map(
          ({ status, attempts, lastStatusCode, nextAttemptAt }) => ({
            status,
            attempts,
            lastStatusCode,
            nextAttemptAt,
          }),
        );
      })
      .toEqual([
        {
          status: 'delivered',
          attempts: 4,
          lastStatusCode: 200,
          nextAttemptAt: null,
        },
      ]);
  });

  it('deliver all 20 orders placed while the receiver was down, once it is back', async () => {
    const hooks = await receiver();
    const hook = await subscribe(customer.api, hooks.url, ['order.created']);
    await hooks.down();
    const { petId } = await stockedPet(stack.admin, 20);
    const placed = await Promise.all(
      Array.from(
        { length: 20 },
        async () =>
          ok(
            await customer.api.orders.placeOrder({
              body: { petId, quantity: 1 },
            }),
            201,
          ).body.id,
      ),
    );
    // Every delivery met the refused connection at least once before the receiver came back.
    await expect
      .poll(async () => {
        const log = ok(
          await customer.api.webhooks.listWebhookDeliveries({
            params: { webhookId: hook.id },
            query: { limit: 100 },
          }),
          200,
        ).body;
        return log.filter(
          ({ attempts, status }) => attempts >= 1 && status === 'pending',
        ).length;
      })
      .toBe(20);
    await hooks.up();

    await expect
      .poll(
        () =>
          new Set(hooks.events('order.created').map(({ data }) => data.id))
            .size,
        {
          timeout: 30_000,
        },
      )
      .toBe(20);
    const delivered = hooks.receipts.map((receipt) =>
      verified(hook.secret, receipt),
    );
    expect(
      new Set(delivered.map(({ data }) => (data as { id: number }).id)),
    ).toEqual(new Set(placed));
  });

  it('keep taking orders quickly while a receiver hangs', async () => {
    const hooks = await receiver();
    hooks.answer(...Array.from({ length: 50 }, () => 'hang' as const));
    await subscribe(customer.api, hooks.url, ['order.created']);
    const { petId } = await stockedPet(stack.admin, 10);
    for (let i = 0; i < 10; i++) {
      ok(
        await customer.api.orders.placeOrder({ body: { petId, quantity: 1 } }),
        201,
      );
    }
    await expect.poll(() => hooks.receipts.length).toBeGreaterThan(0);
  });

  it('refuse a URL of a link-local metadata address with 422 invalid_webhook_url', async () => {
    const refused = await customer.api.webhooks.createWebhook({
      body: {
        url: 'http://169.254.169.254/latest/meta-data',
        events: ['order.created'],
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'invalid_webhook_url',
      status: 422,
    });
  });

  it('answer 404 for another account’s webhook, whatever the operation', async () => {
    const hooks = await receiver();
    const hook = await subscribe(customer.api, hooks.url, ['order.created']);
    const other = await stack.signUp();
    const params = { webhookId: hook.id };
    const answers = [
      await other.api.webhooks.getWebhook({ params }),
      await other.api.webhooks.updateWebhook({
        params,
        body: { enabled: false },
      }),
      await other.api.webhooks.rotateWebhookSecret({ params }),
      await other.api.webhooks.listWebhookDeliveries({ params }),
      await other.api.webhooks.testWebhook({ params }),
      await other.api.webhooks.deleteWebhook({ params }),
    ];
    expect(answers.map(({ status }) => status)).toEqual([
      404, 404, 404, 404, 404, 404,
    ]);
    const list = ok(await other.api.webhooks.listWebhooks(), 200).body;
    expect(list.map(({ id }) => id)).not.toContain(hook.id);
    ok(await customer.api.webhooks.getWebhook({ params }), 200);
  });

  it('send a signed webhook.test event to one webhook when asked, whatever its events', async () => {
    const hooks = await receiver();
    const others = await receiver();
    const hook = await subscribe(customer.api, hooks.url, ['order.created']);
    await subscribe(customer.api, others.url, ['order.created']);
    const params = { webhookId: hook.id };

    const sent = ok(
      await customer.api.webhooks.testWebhook({ params }),
      202,
    ).body;
    expect(sent).toMatchObject({
      type: 'webhook.test',
      status: 'pending',
      attempts: 0,
    });

    await expect.poll(() => hooks.receipts.length).toBe(1);
    const event = verified(hook.secret, hooks.receipts[0] as Receipt);
    const { id, url, events, enabled } = hook;
    expect(event).toMatchObject({ id: sent.eventId, type: 'webhook.test' });
    expect(event.data).toEqual({
      id,
      url,
      events,
      enabled,
      description: null,
      createdAt: hook.createdAt,
    });
    await expect
      .poll(
        async () =>
          ok(await customer.api.webhooks.listWebhookDeliveries({ params }), 200)
            .body,
      )
      .toEqual([
        {
          ...sent,
          status: 'delivered',
          attempts: 1,
          lastStatusCode: 200,
          nextAttemptAt: null,
        },
      ]);
    expect(others.receipts).toEqual([]);

    ok(
      await customer.api.webhooks.updateWebhook({
        params,
        body: { enabled: false },
      }),
      200,
    );
    const off = await customer.api.webhooks.testWebhook({ params });
    expect(off.status).toBe(409);
    expect(off.body).toMatchObject({ code: 'conflict', status: 409 });
  });

  it('sign with the old and the new secret while a rotation overlaps', async () => {
    const hooks = await receiver();
    const hook = await subscribe(customer.api, hooks.url, [
      'message.delivered',
    ]);
    const rotated = ok(
      await customer.api.webhooks.rotateWebhookSecret({
        params: { webhookId: hook.id },
      }),
      201,
    ).body;
    expect(rotated.secret).not.toBe(hook.secret);
    ok(
      await customer.api.messages.sendMessage({ body: { message: 'rotated' } }),
      202,
    );

    await expect.poll(() => hooks.receipts.length).toBe(1);
    const receipt = hooks.receipts[0] as Receipt;
    expect(
      String(receipt.headers['webhook-signature']).split(' '),
    ).toHaveLength(2);
    expect(verified(rotated.secret, receipt).id).toBe(
      verified(hook.secret, receipt).id,
    );
  });
});
