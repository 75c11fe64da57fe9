import { createPetstoreClient } from '@petstore/contract';
import { describe, expect, it } from 'vitest';
import { ok, stockedPet } from '../support/catalogue.js';
import { databaseNames } from '../support/databases.js';
import { testStackForFile } from '../support/stack-for-file.js';
import { unthrottled } from '../support/test-stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/** How long a gateway holds a webhook it delivers to; another takes it over after. */
const LEASE_MS = 2_000;

const api = testStackForFile(
  {
    ...unthrottled,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_LEASE_MS: String(LEASE_MS),
    // The surviving gateway looks often, whichever gateway recorded the events.
    WEBHOOK_POLL_MS: '200',
  },
  { replicas: { gateway: 2, store: 2 } },
);

describe('webhooks with two gateways and two stores', () => {
  it('deliver every event, one gateway at a time, when the one delivering dies mid-delivery', async () => {
    await using receiver = await WebhookReceiver.start();
    // The first delivery hangs: the gateway sending it is killed while it waits. The others go
    // out beside it, as a webhook's deliveries are sent several at once.
    receiver.answer('hang');
    const hook = ok(
      await api.admin.webhooks.createWebhook({
        body: { url: receiver.url, events: ['order.created'] },
      }),
      201,
    ).body;
    const { petId } = await stockedPet(api.admin, 5);
    const { apiKey } = await api.signUp();
    const customers = api.stack.replicas.gateway.map((gateway) =>
      createPetstoreClient({ baseUrl: gateway.url, apiKey }),
    );
    const ordered: number[] = [];
    for (let index = 0; index < 5; index++) {
      const customer = customers[index % customers.length]!;
      const placed = ok(
        await customer.orders.placeOrder({ body: { petId, quantity: 1 } }),
        201,
      );
      ordered.push(Number(placed.body.id));
    }
    await expect.poll(() => receiver.receipts.length).toBeGreaterThan(0);

    // The webhook's lease names the process delivering to it.
    const db = await api.databases();
    const webhook = await db
      .db(databaseNames.gateway)
      .collection('webhooks')
      .findOne({ _id: hook.id as never });
    const holder = Number(String(webhook?.leaseOwner).split('/')[1]);
    const gateways = api.stack.replicas.gateway;
    const pids = await Promise.all(gateways.map((gateway) => gateway.pid()));
    const delivering = gateways[pids.indexOf(holder)];
    if (!delivering) throw new Error(`no gateway has pid ${holder}`);
    await delivering.signal('SIGKILL');

    await expect
      .poll(
        () =>
          new Set(receiver.events('order.created').map(({ data }) => data.id))
            .size,
        {
          timeout: 20_000,
        },
      )
      .toBe(ordered.length);
    // An interrupted delivery is sent again, once; no event goes out more than twice.
    const ids = receiver.receipts.map(({ headers }) =>
      String(headers['webhook-id']),
    );
    const times = new Map<string, number>();
    for (const id of ids) times.set(id, (times.get(id) ?? 0) + 1);
    expect(times.get(ids[0]!)).toBe(2);
    expect(Math.max(...times.values())).toBeLessThanOrEqual(2);
    expect(new Set(receiver.events().map(({ data }) => data.id))).toEqual(
      new Set(ordered),
    );
  });
});
