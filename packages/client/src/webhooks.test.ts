import { afterEach, describe, expect, it, vi } from 'vitest';
import { PetstoreWebhookError } from './errors.js';
import {
  body,
  delivery,
  event,
  otherSecret,
  secret,
  sign,
} from './test-support/webhook-delivery.js';
import { constructEvent } from './webhooks.js';

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
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves to the event of a delivery signed with the secret', async () => {
    const received = await constructEvent(body, await delivery(), secret);

    expect(received).toEqual(event);
    if (received.type !== 'order.created') throw new Error('narrowed by type');
    expect(received.data.quantity).toBe(1);
  });

  it('reads the body as a Uint8Array or an ArrayBuffer, and fetch Headers', async () => {
    const headers = new Headers(await delivery());
    const bytes = new TextEncoder().encode(body);

    await expect(constructEvent(bytes, headers, secret)).resolves.toEqual(
      event,
    );
    await expect(
      constructEvent(bytes.buffer, headers, secret),
    ).resolves.toEqual(event);
  });

  it('reads Node request headers of any case', async () => {
    const headers = Object.fromEntries(
      Object.entries(await delivery()).map(([name, value]) => [
        name.toUpperCase(),
        [value],
      ]),
    );
    await expect(constructEvent(body, headers, secret)).resolves.toEqual(event);
  });

  it('accepts a signature made as Standard Webhooks makes it', async () => {
    // Computed once with Node's createHmac, independently of the SDK and of sign().
    const headers = {
      'webhook-id': event.id,
      'webhook-timestamp': String(Date.parse(event.timestamp) / 1000),
      'webhook-signature': 'v1,jpoiHBjMmiB+je/MOrr2ghaVjsGCQUtSd8GkPpt08Rs=',
    };
    const known = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

    await expect(
      constructEvent(body, headers, known, { tolerance: Infinity }),
    ).resolves.toEqual(event);
  });

  it('accepts either of two secrets while one is rotated', async () => {
    const signedByBoth = await delivery({ keys: [otherSecret, secret] });
    const signedByOld = await delivery({ keys: [secret] });

    await expect(constructEvent(body, signedByBoth, secret)).resolves.toEqual(
      event,
    );
    await expect(
      constructEvent(body, signedByOld, [otherSecret, secret]),
    ).resolves.toEqual(event);
  });

  it('skips a signature that is not base64 and checks the others', async () => {
    const headers = await delivery();
    headers['webhook-signature'] =
      `v1,not*base64 ${headers['webhook-signature']}`;

    await expect(constructEvent(body, headers, secret)).resolves.toEqual(event);
  });

  it('refuses a signature made with another secret', async () => {
    const headers = await delivery({ keys: [otherSecret] });
    const error = await rejection(() => constructEvent(body, headers, secret));
    expect(error.message).toMatch(/No webhook-signature matches/);
  });

  it('refuses a body changed after signing', async () => {
    const changed = body.replace('"quantity":1', '"quantity":9');
    const headers = await delivery();
    const error = await rejection(() =>
      constructEvent(changed, headers, secret),
    );
    expect(error.message).toMatch(/No webhook-signature matches/);
  });

  it('refuses a secret that is not base64', async () => {
    const headers = await delivery();
    const error = await rejection(() =>
      constructEvent(body, headers, 'whsec_not*base64'),
    );
    expect(error.message).toBe('The webhook secret is not whsec_ and base64');
  });

  it('refuses a timestamp outside the tolerance, either way', async () => {
    // The clock stands still, so that the ages are exactly those signed.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(event.timestamp) });
    const now = Math.floor(Date.now() / 1000);
    const stale = await delivery({ timestamp: now - 301 });
    const early = await delivery({ timestamp: now + 600 });

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
        ...(await delivery()),
        [name]: undefined,
      };
      expect(
        (await rejection(() => constructEvent(body, headers, secret))).message,
      ).toBe(`The webhook request has no ${name} header`);
    },
  );

  it('refuses a timestamp that is not unix seconds', async () => {
    const headers = {
      ...(await delivery()),
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
      'webhook-signature': await sign(secret, event.id, timestamp, 'not json'),
    };
    expect(
      (await rejection(() => constructEvent('not json', headers, secret)))
        .message,
    ).toBe('The webhook body is not JSON');
  });
});
