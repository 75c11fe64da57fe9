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
  data: { id: 1, petId: 1, quantity: 1, shipDate: '2026-01-15T09:30:00Z', complete: false },
};
const body = JSON.stringify(event);

function sign(key: string, id: string, timestamp: number, payload: string): string {
  const bytes = Buffer.from(key.slice('whsec_'.length), 'base64');
  const mac = createHmac('sha256', bytes).update(`${id}.${timestamp}.${payload}`).digest('base64');
  return `v1,${mac}`;
}

function delivery({ keys = [secret], timestamp = Math.floor(Date.now() / 1000) } = {}) {
  return {
    'webhook-id': event.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': keys.map((key) => sign(key, event.id, timestamp, body)).join(' '),
  };
}

function rejection(run: () => unknown): PetstoreWebhookError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PetstoreWebhookError);
    return error as PetstoreWebhookError;
  }
  throw new Error('expected a PetstoreWebhookError');
}

describe('constructEvent', () => {
  it('returns the event of a delivery signed with the secret', () => {
    const received = constructEvent(body, delivery(), secret);

    expect(received).toEqual(event);
    if (received.type !== 'order.created') throw new Error('narrowed by type');
    expect(received.data.quantity).toBe(1);
  });

  it('reads a Uint8Array body and fetch Headers', () => {
    const headers = new Headers(delivery());
    expect(constructEvent(new TextEncoder().encode(body), headers, secret)).toEqual(event);
  });

  it('reads Node request headers of any case', () => {
    const headers = Object.fromEntries(
      Object.entries(delivery()).map(([name, value]) => [name.toUpperCase(), [value]]),
    );
    expect(constructEvent(body, headers, secret)).toEqual(event);
  });

  it('accepts either of two secrets while one is rotated', () => {
    const signedByBoth = delivery({ keys: [otherSecret, secret] });
    const signedByOld = delivery({ keys: [secret] });

    expect(constructEvent(body, signedByBoth, secret)).toEqual(event);
    expect(constructEvent(body, signedByOld, [otherSecret, secret])).toEqual(event);
  });

  it('refuses a signature made with another secret', () => {
    const error = rejection(() => constructEvent(body, delivery({ keys: [otherSecret] }), secret));
    expect(error.message).toMatch(/No webhook-signature matches/);
  });

  it('refuses a body changed after signing', () => {
    const changed = body.replace('"quantity":1', '"quantity":9');
    expect(rejection(() => constructEvent(changed, delivery(), secret)).message).toMatch(
      /No webhook-signature matches/,
    );
  });

  it('refuses a timestamp outside the tolerance, either way', () => {
    const now = Math.floor(Date.now() / 1000);
    const stale = delivery({ timestamp: now - 301 });
    const early = delivery({ timestamp: now + 600 });

    expect(rejection(() => constructEvent(body, stale, secret)).message).toMatch(
      /is 301 s old, more than the tolerance of 300 s/,
    );
    expect(rejection(() => constructEvent(body, early, secret)).message).toMatch(/in the future/);
    expect(constructEvent(body, stale, secret, { tolerance: 400 })).toEqual(event);
  });

  it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])(
    'refuses a delivery without %s',
    (name) => {
      const headers: Record<string, string | undefined> = { ...delivery(), [name]: undefined };
      expect(rejection(() => constructEvent(body, headers, secret)).message).toBe(
        `The webhook request has no ${name} header`,
      );
    },
  );

  it('refuses a timestamp that is not unix seconds', () => {
    const headers = { ...delivery(), 'webhook-timestamp': '2026-01-15T09:30:00Z' };
    expect(rejection(() => constructEvent(body, headers, secret)).message).toMatch(
      /not unix seconds/,
    );
  });

  it('refuses a signed body that is not an event', () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': sign(secret, event.id, timestamp, 'not json'),
    };
    expect(rejection(() => constructEvent('not json', headers, secret)).message).toBe(
      'The webhook body is not JSON',
    );
  });
});
