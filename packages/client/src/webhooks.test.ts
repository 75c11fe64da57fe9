import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PetstoreWebhookError } from './errors.js';
import { constructEvent } from './webhooks.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
const event = {
  id: 'evt_2Zk8qP4mT7xW1nBc',
  type: 'order.created',
  timestamp: '2026-01-15T09:30:00Z',
  data: {
    id: 1,
    petId: 1,
    quantity: 1,
    shipDate: '2026-01-15T09:30:00Z',
    complete: false,
  },
};
const body = JSON.stringify(event);

function sign(
  key: string,
  id: string,
  timestamp: number,
  payload: string,
): string {
  const bytes = Buffer.from(key.slice('whsec_'.length), 'base64');
  const mac = createHmac('sha256', bytes)
    .update(`${id}.${timestamp}.${payload}`)
    .digest('base64');
  return `v1,${mac}`;
}

function delivery({
  keys = [secret],
  timestamp = Math.floor(Date.now() / 1000),
} = {}) {
  return {
    'webhook-id': event.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': keys
      .map((key) => sign(key, event.id, timestamp, body))
      .join(' '),
  };
}

async function rejection(
  run: () => Promise<unknown>,
): Promise<PetstoreWebhookError> {
  const error = await run().then(
    () => new Error('expected a PetstoreWebhookError'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PetstoreWebhookError);
  return error as PetstoreWebhookError;
}

describe('constructEvent', () => {
  it('resolves to the event of a delivery signed with the secret', async () => {
    const received = await constructEvent(body, delivery(), secret);

    expect(received).toEqual(event);
    if (received.type !== 'order.created') throw new Error('narrowed by type');
    expect(received.data.quantity).toBe(1);
  });

  it('reads the body as a Uint8Array, a Buffer or an ArrayBuffer, and fetch Headers', async () => {
    const headers = new Headers(delivery());
    const bytes = new TextEncoder().encode(body);

    await expect(constructEvent(bytes, headers, secret)).resolves.toEqual(
      event,
    );
    await expect(
      constructEvent(Buffer.from(body), headers, secret),
    ).resolves.toEqual(event);
    await expect(
      constructEvent(bytes.buffer, headers, secret),
    ).resolves.toEqual(event);
  });

  it('reads Node request headers of any case', async () => {
    const headers = Object.fromEntries(
      Object.entries(delivery()).map(([name, value]) => [
        name.toUpperCase(),
        [value],
      ]),
    );
    await expect(constructEvent(body, headers, secret)).resolves.toEqual(event);
  });

  it('accepts either of two secrets while one is rotated', async () => {
    const signedByBoth = delivery({ keys: [otherSecret, secret] });
    const signedByOld = delivery({ keys: [secret] });

    await expect(constructEvent(body, signedByBoth, secret)).resolves.toEqual(
      event,
    );
    await expect(
      constructEvent(body, signedByOld, [otherSecret, secret]),
    ).resolves.toEqual(event);
  });

  it('skips a signature that is not base64 and checks the others', async () => {
    const headers = delivery();
    headers['webhook-signature'] =
      `v1,not*base64 ${headers['webhook-signature']}`;

    await expect(constructEvent(body, headers, secret)).resolves.toEqual(event);
  });

  it('refuses a signature made with another secret', async () => {
    const error = await rejection(() =>
      constructEvent(body, delivery({ keys: [otherSecret] }), secret),
    );
    expect(error.message).toMatch(/No webhook-signature matches/);
  });

  it('refuses a body changed after signing', async () => {
    const changed = body.replace('"quantity":1', '"quantity":9');
    const error = await rejection(() =>
      constructEvent(changed, delivery(), secret),
    );
    expect(error.message).toMatch(/No webhook-signature matches/);
  });

  it('refuses a secret that is not base64', async () => {
    const error = await rejection(() =>
      constructEvent(body, delivery(), 'whsec_not*base64'),
    );
    expect(error.message).toBe('The webhook secret is not whsec_ and base64');
  });

  it('refuses a timestamp outside the tolerance, either way', async () => {
    const now = Math.floor(Date.now() / 1000);
    const stale = delivery({ timestamp: now - 301 });
    const early = delivery({ timestamp: now + 600 });

    expect(
      (await rejection(() => constructEvent(body, stale, secret))).message,
    ).toMatch(/is 301 s old, more than the tolerance of 300 s/);
    expect(
      (await rejection(() => constructEvent(body, early, secret))).message,
    ).toMatch(/in the future/);
    await expect(
      constructEvent(body, stale, secret, { tolerance: 400 }),
    ).resolves.toEqual(event);
  });

  it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])(
    'refuses a delivery without %s',
    async (name) => {
      const headers: Record<string, string | undefined> = {
        ...delivery(),
        [name]: undefined,
      };
      expect(
        (await rejection(() => constructEvent(body, headers, secret))).message,
      ).toBe(`The webhook request has no ${name} header`);
    },
  );

  it('refuses a timestamp that is not unix seconds', async () => {
    const headers = {
      ...delivery(),
      'webhook-timestamp': '2026-01-15T09:30:00Z',
    };
    expect(
      (await rejection(() => constructEvent(body, headers, secret))).message,
    ).toMatch(/not unix seconds/);
  });

  it('refuses a signed body that is not an event', async () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': sign(secret, event.id, timestamp, 'not json'),
    };
    expect(
      (await rejection(() => constructEvent('not json', headers, secret)))
        .message,
    ).toBe('The webhook body is not JSON');
  });
});
