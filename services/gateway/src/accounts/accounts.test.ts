import { createHash } from 'node:crypto';
import { createPetstoreClient, type ApiKey } from '@petstore/contract';
import { describe, expect } from 'vitest';
import {
  ADMIN_API_KEY,
  bearer,
  signUp,
  startTestGateway,
  testConfig,
  it,
} from '../test-support/gateway-harness.js';
import { PUBLIC_URL } from '../test-support/webhook-fixtures.js';
import { MAX_ACTIVE_KEYS } from './account-limits.js';

const sha256 = (text: string) =>
  createHash('sha256').update(text).digest('hex');

describe('POST /v1/accounts', () => {
  it('creates a customer and shows its key once, storing only the key’s hash', async ({
    gateway,
  }) => {
    const res = await fetch(`${gateway.url}/v1/accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: '  Jane@Example.COM ', name: 'Jane Doe' }),
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as Record<string, string>;
    expect(created).toEqual({
      id: expect.stringMatching(/^acct_[A-Za-z0-9]{20}$/) as string,
      email: 'jane@example.com',
      name: 'Jane Doe',
      role: 'customer',
      apiKey: expect.stringMatching(/^psk_[A-Za-z0-9]{40}$/) as string,
      createdAt: expect.any(String) as string,
    });
    const apiKey = created.apiKey ?? '';

    const keys = await gateway.db
      .collection('api_keys')
      .find({ accountId: created.id })
      .toArray();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({
      hash: sha256(apiKey),
      prefix: apiKey.slice(0, 12),
    });
    const stored = JSON.stringify(
      await Promise.all([
        gateway.db.collection('api_keys').find().toArray(),
        gateway.db.collection('accounts').find().toArray(),
      ]),
    );
    expect(stored).not.toContain(apiKey);
    expect(stored).not.toContain(apiKey.slice(12));

    const me = await fetch(`${gateway.url}/v1/accounts/me`, {
      headers: bearer(apiKey),
    });
    expect(me.status).toBe(200);
    const account = (await me.json()) as Record<string, unknown>;
    expect(account).toEqual({
      id: created.id,
      email: 'jane@example.com',
      name: 'Jane Doe',
      role: 'customer',
      createdAt: created.createdAt,
    });
    expect(account).not.toHaveProperty('apiKey');
  });

  it('gives an account created without a name the name null', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url, 'noname@example.com');
    const me = await fetch(`${gateway.url}/v1/accounts/me`, {
      headers: bearer(apiKey),
    });
    expect(await me.json()).toMatchObject({
      email: 'noname@example.com',
      name: null,
    });
  });

  it('returns 409 conflict for an email already used, whatever its case', async ({
    gateway,
  }) => {
    await signUp(gateway.url, 'taken@example.com');
    const res = await fetch(`${gateway.url}/v1/accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'TAKEN@example.com' }),
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'conflict', status: 409 });
    // The key made for the refused sign-up is gone too.
    expect(
      await gateway.db
        .collection('api_keys')
        .countDocuments({ accountId: { $ne: 'acct_admin' } }),
    ).toBe(1);
  });

  it('creates exactly one account when ten sign-ups race for one email', async ({
    gateway,
  }) => {
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () =>
        fetch(`${gateway.url}/v1/accounts`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: 'race@example.com' }),
        }).then((res) => res.status),
      ),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(9);
    expect(
      await gateway.db
        .collection('accounts')
        .countDocuments({ email: 'race@example.com' }),
    ).toBe(1);
    const account = await gateway.db
      .collection('accounts')
      .findOne({ email: 'race@example.com' });
    expect(
      await gateway.db
        .collection('api_keys')
        .countDocuments({ accountId: account?._id }),
    ).toBe(1);
  });

  it('returns 400 validation_failed for an invalid email', async ({
    gateway,
  }) => {
    const res = await fetch(`${gateway.url}/v1/accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'not-an-email' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'validation_failed',
      status: 400,
    });
  });
});

describe('API keys', () => {
  it('creates more keys, lists them without key material, and each one works', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const petstore = createPetstoreClient({
      baseUrl: gateway.url,
      apiKey,
      validateResponse: true,
    });

    const second = await petstore.accounts.createKey();
    expect(second.status).toBe(201);
    if (second.status !== 201) return;
    expect(second.body.apiKey).toMatch(/^psk_[A-Za-z0-9]{40}$/);
    expect(second.body.prefix).toBe(second.body.apiKey.slice(0, 12));

    const listed = await createPetstoreClient({
      baseUrl: gateway.url,
      apiKey: second.body.apiKey,
    }).accounts.listKeys();
    expect(listed.status).toBe(200);
    if (listed.status !== 200) return;
    expect(listed.body).toHaveLength(2);
    expect(listed.body[1]).toEqual({
      id: second.body.id,
      prefix: second.body.prefix,
      createdAt: second.body.createdAt,
      lastUsedAt: null,
    });
    expect(JSON.stringify(listed.body)).not.toContain(second.body.apiKey);
    expect(JSON.stringify(listed.body)).not.toContain(apiKey);
  });

  it('pages the live keys by limit and cursor, oldest first, the next page in Link', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const petstore = createPetstoreClient({ baseUrl: gateway.url, apiKey });
    const signedUp = await petstore.accounts.listKeys();
    if (signedUp.status !== 200) throw new Error('no keys');
    const ids = signedUp.body.map(({ id }) => id);
    while (ids.length < MAX_ACTIVE_KEYS) ids.push(await createKeyId(petstore));
    // Nine live keys: three full pages, and no empty fourth one.
    const [revoked = ''] = ids.splice(4, 1);
    expect(
      (await petstore.accounts.revokeKey({ params: { keyId: revoked } }))
        .status,
    ).toBe(204);

    const pages: ApiKey[][] = [];
    let next: string | undefined = '/v1/accounts/me/keys?limit=3';
    while (next !== undefined) {
      const page = await fetch(`${gateway.url}${next}`, {
        headers: bearer(apiKey),
      });
      expect(page.status).toBe(200);
      pages.push((await page.json()) as ApiKey[]);
      next = /^<([^>]+)>; rel="next"$/.exec(
        page.headers.get('link') ?? '',
      )?.[1];
      if (next)
        expect(next).toMatch(
          /^\/v1\/accounts\/me\/keys\?limit=3&cursor=[\w-]+$/,
        );
    }
    expect(pages.map((page) => page.length)).toEqual([3, 3, 3]);
    const listed = pages.flat();
    expect(listed.map(({ id }) => id).toSorted()).toEqual(ids.toSorted());
    const times = listed.map(({ createdAt }) => createdAt);
    expect(times).toEqual(times.toSorted());
  });

  it('refuses a limit out of 1–100 or a cursor it did not give out', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=two',
      'cursor=nonsense',
    ]) {
      const refused = await fetch(
        `${gateway.url}/v1/accounts/me/keys?${query}`,
        {
          headers: bearer(apiKey),
        },
      );
      expect(refused.status, query).toBe(400);
      expect(await refused.json()).toMatchObject({ code: 'validation_failed' });
    }
  });

  it('reads a page of keys in the order of an index, never a revoked key', async ({
    gateway,
  }) => {
    const { accountId, apiKey } = await signUp(gateway.url);
    const petstore = createPetstoreClient({ baseUrl: gateway.url, apiKey });
    const revoked = await createKeyId(petstore);
    await petstore.accounts.revokeKey({ params: { keyId: revoked } });
    await gateway.db.command({ profile: 2 });

    expect(
      (await petstore.accounts.listKeys({ query: { limit: 1 } })).status,
    ).toBe(200);
    const reads = await gateway.db
      .collection('system.profile')
      .find({
        ns: `${gateway.db.databaseName}.api_keys`,
        'command.filter.accountId': accountId,
      })
      .toArray();
    expect(reads).toEqual([
      expect.objectContaining({
        planSummary: expect.stringMatching(/^IXSCAN /) as string,
        docsExamined: 1,
      }),
    ]);
    expect(reads[0]).not.toHaveProperty('hasSortStage');
  });

  it('revokes a key: 204, then 401 for that key at once, the other keys keep working', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const petstore = createPetstoreClient({ baseUrl: gateway.url, apiKey });
    const spare = await petstore.accounts.createKey();
    if (spare.status !== 201) throw new Error('no spare key');

    // The key is used, so it sits in the gateway's cache when it is revoked.
    expect((await petstore.accounts.getMe()).status).toBe(200);
    const keys = await petstore.accounts.listKeys();
    if (keys.status !== 200) throw new Error('no keys');
    const first = keys.body[0];
    const revoked = await petstore.accounts.revokeKey({
      params: { keyId: first?.id ?? '' },
    });
    expect(revoked.status).toBe(204);

    const after = await fetch(`${gateway.url}/v1/accounts/me`, {
      headers: bearer(apiKey),
    });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toBe(
      'Bearer realm="petstore"',
    );
    const withSpare = await fetch(`${gateway.url}/v1/accounts/me/keys`, {
      headers: bearer(spare.body.apiKey),
    });
    expect(withSpare.status).toBe(200);
    expect(await withSpare.json()).toEqual([
      expect.objectContaining({ id: spare.body.id }),
    ]);
  });

  it('returns 404 not_found when revoking another account’s key, and leaves it working', async ({
    gateway,
  }) => {
    const alice = await signUp(gateway.url);
    const bob = await signUp(gateway.url);
    const bobKeys = (await (
      await fetch(`${gateway.url}/v1/accounts/me/keys`, {
        headers: bearer(bob.apiKey),
      })
    ).json()) as { id: string }[];

    const res = await fetch(
      `${gateway.url}/v1/accounts/me/keys/${bobKeys[0]?.id}`,
      {
        method: 'DELETE',
        headers: bearer(alice.apiKey),
      },
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found', status: 404 });
    const bobMe = await fetch(`${gateway.url}/v1/accounts/me`, {
      headers: bearer(bob.apiKey),
    });
    expect(bobMe.status).toBe(200);
  });
});

async function createKeyId(
  petstore: ReturnType<typeof createPetstoreClient>,
): Promise<string> {
  const created = await petstore.accounts.createKey();
  if (created.status !== 201)
    throw new Error(`createKey answered ${created.status}`);
  return created.body.id;
}

/**
 * Asks for `burst` at once, then one at a time until one is refused: never more than `max` made.
 * Creations that wait their turn too long under contention are 503, a retry's to make.
 */
async function fillUp(
  create: () => Promise<{ status: number; body: unknown }>,
  burst: number,
) {
  const made = await Promise.all(Array.from({ length: burst }, create));
  for (const { status } of made) expect([201, 409, 503]).toContain(status);
  let created = made.filter(({ status }) => status === 201).length;
  for (let answer = await create(); ; answer = await create()) {
    if (answer.status !== 201) return { created, refused: answer };
    created += 1;
  }
}

describe('an account’s limits', () => {
  it('keeps 10 active keys, however many are asked for at once; revoking frees a place', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const petstore = createPetstoreClient({ baseUrl: gateway.url, apiKey });

    const { created, refused } = await fillUp(
      () => petstore.accounts.createKey(),
      12,
    );
    // Nine besides the sign-up's key.
    expect(created).toBe(9);
    expect(refused).toMatchObject({
      status: 409,
      body: {
        code: 'conflict',
        message: 'an account has at most 10 active keys',
      },
    });
    const keys = await petstore.accounts.listKeys();
    if (keys.status !== 200) throw new Error('no keys');
    expect(keys.body).toHaveLength(10);
    await petstore.accounts.revokeKey({
      params: { keyId: keys.body[9]?.id ?? '' },
    });
    expect((await petstore.accounts.createKey()).status).toBe(201);
  });

  it('keeps 16 webhooks, however many are asked for at once', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const petstore = createPetstoreClient({ baseUrl: gateway.url, apiKey });
    const body = { url: PUBLIC_URL, events: ['order.created' as const] };

    const { created, refused } = await fillUp(
      () => petstore.webhooks.createWebhook({ body }),
      18,
    );
    expect(created).toBe(16);
    expect(refused).toMatchObject({
      status: 409,
      body: { code: 'conflict', message: 'an account has at most 16 webhooks' },
    });
  });
});

describe('the admin account', () => {
  it('is made from ADMIN_API_KEY at start-up, idempotently across restarts', async ({
    mongo,
  }) => {
    const config = testConfig(mongo);
    for (let start = 0; start < 2; start++) {
      await using gateway = await startTestGateway(mongo, { config });
      const me = await fetch(`${gateway.url}/v1/accounts/me`, {
        headers: bearer(ADMIN_API_KEY),
      });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({
        id: 'acct_admin',
        role: 'admin',
      });
      expect(
        await gateway.db
          .collection('accounts')
          .countDocuments({ role: 'admin' }),
      ).toBe(1);
      expect(
        await gateway.db
          .collection('api_keys')
          .countDocuments({ accountId: 'acct_admin' }),
      ).toBe(1);
    }
  });

  it('replaces the old admin key when ADMIN_API_KEY changes', async ({
    mongo,
  }) => {
    const first = testConfig(mongo);
    const newKey = 'psk_ChangedAdminKey0123456789abcdefABCDEFGH';
    const second = { ...first, adminApiKey: newKey };
    {
      await using gateway = await startTestGateway(mongo, { config: first });
      expect(
        (
          await fetch(`${gateway.url}/v1/accounts/me`, {
            headers: bearer(ADMIN_API_KEY),
          })
        ).status,
      ).toBe(200);
    }
    await using gateway = await startTestGateway(mongo, { config: second });
    expect(
      (
        await fetch(`${gateway.url}/v1/accounts/me`, {
          headers: bearer(ADMIN_API_KEY),
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await fetch(`${gateway.url}/v1/accounts/me`, {
          headers: bearer(newKey),
        })
      ).status,
    ).toBe(200);
  });

  it('keeps an admin key revoked through the API revoked across restarts', async ({
    mongo,
  }) => {
    const config = testConfig(mongo);
    {
      await using gateway = await startTestGateway(mongo, { config });
      const revoked = await fetch(
        `${gateway.url}/v1/accounts/me/keys/key_admin`,
        {
          method: 'DELETE',
          headers: bearer(ADMIN_API_KEY),
        },
      );
      expect(revoked.status).toBe(204);
    }
    await using gateway = await startTestGateway(mongo, { config });
    expect(
      (
        await fetch(`${gateway.url}/v1/accounts/me`, {
          headers: bearer(ADMIN_API_KEY),
        })
      ).status,
    ).toBe(401);
    expect(gateway.logs.text()).toContain(
      'the ADMIN_API_KEY given was revoked through the API and stays revoked: set a new one',
    );
  });

  it('has no working key when ADMIN_API_KEY is unset', async ({ mongo }) => {
    const first = testConfig(mongo);
    {
      await using gateway = await startTestGateway(mongo, { config: first });
      expect(
        (
          await fetch(`${gateway.url}/v1/accounts/me`, {
            headers: bearer(ADMIN_API_KEY),
          })
        ).status,
      ).toBe(200);
    }
    await using gateway = await startTestGateway(mongo, {
      config: { ...first, adminApiKey: undefined },
    });
    expect(
      (
        await fetch(`${gateway.url}/v1/accounts/me`, {
          headers: bearer(ADMIN_API_KEY),
        })
      ).status,
    ).toBe(401);
  });
});
