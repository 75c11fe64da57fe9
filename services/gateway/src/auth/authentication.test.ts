import { describe, expect, vi } from 'vitest';
import {
  ADMIN_API_KEY,
  bearer,
  signUp,
  startTestGateway,
  it,
} from '../test-support/gateway-harness.js';
import { createLogger } from '@petstore/service-kit';
import { hashApiKey, newApiKey } from './api-key-secret.js';
import {
  Authenticator,
  createKeyCache,
  KeyUsage,
  type KeyOwner,
} from './authentication.js';

describe('authentication', () => {
  const refused: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['another scheme', { Authorization: 'Basic dXNlcjpwYXNz' }],
    ['Bearer with no token', { Authorization: 'Bearer' }],
    ['Bearer with only spaces', { Authorization: 'Bearer    ' }],
    ['a malformed key', { Authorization: 'Bearer psk_short' }],
    ['a token that is not a key', { Authorization: 'Bearer {"$gt":""}' }],
    ['an unknown key', { Authorization: `Bearer psk_${'x'.repeat(40)}` }],
  ];

  it.for(refused)(
    'returns 401 unauthorized with WWW-Authenticate for %s',
    async ([, headers], { mongo }) => {
      await using gateway = await startTestGateway(mongo);
      const res = await fetch(`${gateway.url}/v1/accounts/me`, {
        headers: { 'X-Request-Id': 'req-401', ...headers },
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(
        'Bearer realm="petstore"',
      );
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toMatchObject({
        code: 'unauthorized',
        status: 401,
        requestId: 'req-401',
      });
    },
  );

  it('returns 401 for a proxied operation without a key, before reaching the service', async ({
    gateway,
  }) => {
    const res = await fetch(`${gateway.url}/v1/pets`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="petstore"');
  });

  it('accepts the scheme name in any case', async ({ gateway }) => {
    const { apiKey } = await signUp(gateway.url);
    const res = await fetch(`${gateway.url}/v1/accounts/me`, {
      headers: { Authorization: `bearer ${apiKey}` },
    });
    expect(res.status).toBe(200);
  });

  it('returns 401 for a key whose account is gone', async ({ gateway }) => {
    const { apiKey, accountId } = await signUp(gateway.url);
    await gateway.db
      .collection('accounts')
      .deleteOne({ _id: accountId as never });
    const res = await fetch(`${gateway.url}/v1/accounts/me`, {
      headers: bearer(apiKey),
    });
    expect(res.status).toBe(401);
  });
});

describe('roles', () => {
  it('returns 403 forbidden for a customer on an admin operation, without reaching the service', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const res = await fetch(`${gateway.url}/v1/pets`, {
      method: 'POST',
      headers: { ...bearer(apiKey), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'forbidden', status: 403 });
  });

  it('lets the admin through to the service on an admin operation', async ({
    gateway,
  }) => {
    const res = await fetch(`${gateway.url}/v1/pets`, {
      method: 'POST',
      headers: { ...bearer(ADMIN_API_KEY), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    // Nothing listens at the pets address of this test: the request got past the role check.
    expect(res.status).toBe(503);
  });
});

describe('lastUsedAt', () => {
  it('costs no write per request: it is written in a batch when the gateway flushes', async ({
    mongo,
  }) => {
    await using gateway = await startTestGateway(mongo, {
      env: { KEY_USAGE_FLUSH_MS: '3600000' },
    });
    const { apiKey, accountId } = await signUp(gateway.url);
    const keys = gateway.db.collection('api_keys');
    for (let i = 0; i < 5; i++) {
      expect(
        (
          await fetch(`${gateway.url}/v1/accounts/me`, {
            headers: bearer(apiKey),
          })
        ).status,
      ).toBe(200);
    }
    expect(await keys.findOne({ accountId })).toMatchObject({
      lastUsedAt: null,
    });

    await gateway.close(); // shutting down flushes what is pending
    const flushed = await keys.findOne({ accountId });
    expect(flushed?.lastUsedAt).toBeInstanceOf(Date);
  });

  it('is written on the flush timer and shows in the key list', async ({
    mongo,
  }) => {
    await using gateway = await startTestGateway(mongo, {
      env: { KEY_USAGE_FLUSH_MS: '50' },
    });
    const { apiKey } = await signUp(gateway.url);
    const listKeys = async () =>
      (await (
        await fetch(`${gateway.url}/v1/accounts/me/keys`, {
          headers: bearer(apiKey),
        })
      ).json()) as {
        lastUsedAt: string | null;
      }[];
    const lastUsedAt = await vi.waitUntil(
      async () => (await listKeys())[0]?.lastUsedAt,
      {
        timeout: 10_000,
      },
    );
    expect(new Date(lastUsedAt).getTime()).toBeLessThanOrEqual(Date.now());
  });
});

describe('revocation', () => {
  const logger = createLogger({ name: 'gateway', level: 'silent' });

  it('does not cache a key read as live by a lookup that began before it was revoked', async () => {
    const apiKey = newApiKey();
    const owner: KeyOwner = {
      keyId: 'key_a',
      hash: hashApiKey(apiKey),
      accountId: 'acct_a',
      role: 'customer',
    };
    let live = true;
    let answer: (() => void) | undefined;
    const lookups = vi.fn(
      () =>
        new Promise<KeyOwner | undefined>((resolve) => {
          const found = live ? owner : undefined;
          answer = () => {
            resolve(found);
          };
        }),
    );
    const authenticator = new Authenticator(
      { findKeyOwner: lookups },
      createKeyCache({ ttlMs: 1000, maxEntries: 10 }),
      new KeyUsage(() => Promise.resolve(), logger),
    );
    const inFlight = authenticator.authenticate(`Bearer ${apiKey}`);
    // Revoked (here, through this gateway) while the database's answer is on its way.
    live = false;
    authenticator.forget(owner.hash);
    answer?.();
    await inFlight;

    const next = authenticator.authenticate(`Bearer ${apiKey}`);
    answer?.();
    await expect(next).rejects.toMatchObject({ code: 'unauthorized' });
    expect(lookups).toHaveBeenCalledTimes(2);
  });

  it('refuses a key revoked on another gateway at once for keys and messages, though cached here', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const me = await fetch(`${gateway.url}/v1/accounts/me`, {
      headers: bearer(apiKey),
    });
    expect(me.status).toBe(200);
    // What another gateway's DELETE /v1/accounts/me/keys/{keyId} writes.
    await gateway.db
      .collection('api_keys')
      .updateOne(
        { hash: hashApiKey(apiKey) },
        { $set: { revokedAt: new Date() } },
      );

    const newKey = await fetch(`${gateway.url}/v1/accounts/me/keys`, {
      method: 'POST',
      headers: bearer(apiKey),
    });
    const message = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { ...bearer(apiKey), 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 'hello' }),
    });
    expect([newKey.status, message.status]).toEqual([401, 401]);
    expect(await gateway.db.collection('messages').countDocuments()).toBe(0);
  });
});
