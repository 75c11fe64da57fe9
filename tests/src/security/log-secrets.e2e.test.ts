import { describe, expect, it } from 'vitest';
import { callHttp, type HttpAnswer } from '@petstore/testkit';
import { ok, stockedPet } from '../support/catalogue.js';
import { pieces, sha256 } from '../support/secrets.js';
import { unthrottled } from '../support/test-stack.js';
import { testStackForFile } from '../support/stack-for-file.js';

// The services log every request, every 5xx with its cause, and their start and stop. Run a
// workload that goes through sign-up, good, bad and revoked keys, malformed credentials, errors
// and outages at the most verbose level, then read every line the three processes wrote.

/** Every API key or key-like credential the workload sent. */
const keys: string[] = [];

const api = testStackForFile({
  ...unthrottled,
  LOG_LEVEL: 'trace',
  KEY_USAGE_FLUSH_MS: '100',
  UPSTREAM_TIMEOUT_MS: '2000',
});

/** Waits until a line of `service` names the answer's request, so the lines of a step are all in. */
async function logged(answer: HttpAnswer, service = 'gateway'): Promise<void> {
  const requestId = answer.headers.get('x-request-id') ?? '';
  await expect
    .poll(
      () =>
        api.logs.filter(
          (line) =>
            line.includes(`"name":"${service}"`) &&
            line.includes(`"${requestId}"`),
        ).length,
    )
    .toBeGreaterThan(0);
}

describe('the logs of the whole API', () => {
  it('runs a workload of keys good and bad, errors and outages', async () => {
    // Sign-up, and the keys of an account: created, used, listed, revoked, used again.
    const customer = await api.signUp();
    keys.push(customer.apiKey);
    const extra = ok(await customer.api.accounts.createKey(), 201);
    keys.push(extra.body.apiKey);
    expect(
      (
        await callHttp(api.url, 'GET', '/v1/accounts/me', {
          apiKey: extra.body.apiKey,
        })
      ).status,
    ).toBe(200);
    ok(await customer.api.accounts.listKeys(), 200);
    ok(
      await customer.api.accounts.revokeKey({
        params: { keyId: extra.body.id },
      }),
      204,
    );
    expect(
      (
        await callHttp(api.url, 'GET', '/v1/accounts/me', {
          apiKey: extra.body.apiKey,
        })
      ).status,
    ).toBe(401);

    // The admin at work, and a customer ordering.
    const { petId } = await stockedPet(api.admin, 10);
    keys.push(ok(await api.admin.accounts.createKey(), 201).body.apiKey);
    ok(
      await customer.api.orders.placeOrder({ body: { petId, quantity: 1 } }),
      201,
    );

    // Keys that are unknown, malformed or sent the wrong way.
    const unknown = `psk_${'Q'.repeat(12)}${customer.apiKey.slice(16)}`;
    const tooLong = `${customer.apiKey}${customer.apiKey.slice(4)}${'x'.repeat(100)}`;
    const badChar = `${customer.apiKey}!`;
    keys.push(unknown, tooLong, badChar);
    const key = customer.apiKey;
    const authorizations = [
      `Bearer ${unknown}`,
      `Bearer ${tooLong}`,
      `Bearer ${badChar}`,
      `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
      `Basic ${key}`,
      `Token ${key}`,
      key,
      `Bearer ${key} ${key}`,
      `Bearer ${api.stack.internalToken}`,
      `Bearer ${api.stack.adminApiKey}x`,
      `Bearer`,
    ];
    for (const authorization of authorizations) {
      for (const path of ['/v1/accounts/me', '/v1/store/orders', '/v1/pets']) {
        const answer = await callHttp(api.url, 'GET', path, {
          headers: { authorization },
        });
        expect({ authorization, status: answer.status }).toEqual({
          authorization,
          status: 401,
        });
      }
    }
    // Paths and ids written to look like log lines of their own.
    await callHttp(
      api.url,
      'GET',
      '/v1/pets/%0A%7B%22level%22%3A60%2C%22msg%22%3A%22forged%22%7D',
      {
        apiKey: key,
      },
    );
    await callHttp(
      api.url,
      'GET',
      '/v1/store/orders/1%22%2C%22msg%22%3A%22forged',
      {
        apiKey: key,
      },
    );

    // Keys where no key belongs: other headers, the query string, bodies.
    await callHttp(api.url, 'GET', '/v1/pets', {
      headers: { 'x-api-key': key, 'x-internal-token': key },
    });
    await callHttp(api.url, 'GET', `/v1/pets?api_key=${key}&limit=${key}`, {
      apiKey: key,
    });
    await callHttp(
      api.url,
      'GET',
      `/v1/store/orders?api_key=${key}&petId=${key}`,
      { apiKey: key },
    );
    await callHttp(api.url, 'GET', `/v1/nothing?api_key=${key}`, {
      apiKey: key,
    });
    await callHttp(api.url, 'POST', '/v1/accounts', {
      body: { email: key, apiKey: key },
    });
    await callHttp(api.url, 'POST', '/v1/accounts', {
      body: `{"email": "${key}`,
      headers: { 'content-type': 'application/json' },
    });
    await callHttp(api.url, 'POST', '/v1/store/orders', {
      apiKey: key,
      body: `{"petId": "${key}`,
      headers: { 'content-type': 'application/json' },
    });
    await callHttp(api.url, 'POST', '/v1/store/orders', {
      apiKey: key,
      body: { petId: key, token: key },
    });
    await callHttp(api.url, 'POST', '/v1/messages', {
      apiKey: key,
      body: { message: `my key is ${key}` },
    });
    await callHttp(api.url, 'PUT', `/v1/store/inventory/${petId}`, {
      apiKey: api.stack.adminApiKey,
      body: { quantity: -1, apiKey: key },
    });

    // Outages: the store down (503 at the gateway), then pets down (the store's calls to it
    // fail, and its status pushes are retried).
    await api.stack.store.stop();
    for (const path of [
      '/v1/store/orders',
      '/v1/store/inventory',
      '/ready?deep=true',
    ]) {
      expect(
        (await callHttp(api.url, 'GET', path, { apiKey: key })).status,
      ).toBe(503);
    }
    await api.stack.store.start();
    await api.stack.pets.stop();
    const failed = await callHttp(api.url, 'POST', '/v1/store/orders', {
      apiKey: key,
      body: { petId: 999_999, quantity: 1 },
    });
    expect(failed.status).toBe(503);
    await logged(failed, 'store');
    await callHttp(api.url, 'POST', '/v1/store/orders', {
      apiKey: key,
      body: { petId, quantity: 1 },
    });
    expect(
      (
        await callHttp(api.url, 'GET', '/v1/pets', {
          apiKey: api.stack.adminApiKey,
        })
      ).status,
    ).toBe(503);
    await api.stack.pets.start();

    // The database down: a key never used before must be looked up, and fails; sign-up fails.
    const unused = ok(await customer.api.accounts.createKey(), 201).body.apiKey;
    keys.push(unused);
    await api.stack.database.stop();
    const duringOutage = [
      await callHttp(api.url, 'GET', '/v1/accounts/me', { apiKey: unused }),
      await callHttp(api.url, 'GET', '/v1/store/orders', { apiKey: key }),
      await callHttp(api.url, 'GET', '/v1/pets', { apiKey: key }),
      await callHttp(api.url, 'POST', '/v1/accounts', {
        body: { email: `down.${Date.now()}@example.com` },
      }),
    ];
    // 503 from a service that noticed, 504 from one still waiting when the gateway gave up.
    expect(
      duringOutage.map(({ status }) => status >= 503 && status <= 504),
    ).toEqual(duringOutage.map(() => true));
    await api.stack.database.start();
    await expect
      .poll(
        async () =>
          (
            await callHttp(api.url, 'GET', '/v1/accounts/me', {
              apiKey: unused,
            })
          ).status,
        {
          timeout: 30_000,
        },
      )
      .toBe(200);

    // Everything said and done: stop the whole API, so shutdown lines are in too.
    const last = await callHttp(api.url, 'GET', '/v1/accounts/me', {
      apiKey: key,
    });
    await logged(last);
    await api.stack.stop();
    expect(api.logs.some((line) => line.includes('"status":503'))).toBe(true);
    for (const service of ['pets', 'store', 'gateway']) {
      expect(
        api.logs.some((line) => line.includes(`"name":"${service}"`)),
      ).toBe(true);
    }
  });

  it('never contain an API key, the admin key, the internal token, or a key’s hash', () => {
    expect(keys.length).toBeGreaterThan(0);
    const secrets = [...keys, api.stack.adminApiKey, api.stack.internalToken];
    for (const secret of secrets) {
      const hash = sha256(secret);
      for (const piece of [...pieces(secret), hash]) {
        const lines = api.logs.filter((line) => line.includes(piece));
        expect({ piece, lines }).toEqual({ piece, lines: [] });
      }
    }
  });

  it('are one JSON object each, which no request could forge', () => {
    for (const line of api.logs) {
      const parsed = JSON.parse(line) as { msg?: unknown; name?: unknown };
      expect(parsed.msg).not.toBe('forged');
      expect(['pets', 'store', 'gateway']).toContain(parsed.name);
    }
  });

  it('never contain a message’s text', () => {
    expect(api.logs.filter((line) => line.includes('my key is'))).toEqual([]);
  });
});
