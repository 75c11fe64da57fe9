import { describe, expect } from 'vitest';
import { startFakeService, sendJson } from '../test-support/fake-service.js';
import {
  bearer,
  signUp,
  startTestGateway,
} from '../test-support/gateway-harness.js';
import { it } from '@petstore/testkit/vitest';

/** A gateway in front of a pets service answering [], whose accounts hold `burst` requests. */
async function limitedGateway(
  mongo: Parameters<typeof startTestGateway>[0],
  burst: number,
) {
  const pets = await startFakeService((_request, res) => {
    sendJson(res, 200, []);
  });
  const gateway = await startTestGateway(mongo, {
    env: {
      PETS_URL: pets.url,
      // One token every 1000 s: nothing refills while the test runs, however slow the machine.
      RATE_LIMIT_PER_SECOND: '0.001',
      RATE_LIMIT_BURST: String(burst),
    },
  });
  return {
    pets,
    gateway,
    async [Symbol.asyncDispose]() {
      await gateway[Symbol.asyncDispose]();
      await pets[Symbol.asyncDispose]();
    },
  };
}

describe('rate limits', () => {
  it('limits each account for all gateways: RateLimit-* headers, then 429 with Retry-After', async ({
    mongo,
  }) => {
    await using stack = await limitedGateway(mongo, 4);
    const { pets, gateway } = stack;
    const { apiKey } = await signUp(gateway.url);
    const other = await signUp(gateway.url);
    // A second key of the account shares its bucket: its creation is the first request counted.
    const made = await fetch(`${gateway.url}/v1/accounts/me/keys`, {
      method: 'POST',
      headers: bearer(apiKey),
    });
    const secondKey = ((await made.json()) as { apiKey: string }).apiKey;

    const answers = [];
    for (const key of [apiKey, secondKey, apiKey, secondKey]) {
      answers.push(
        await fetch(`${gateway.url}/v1/pets`, { headers: bearer(key) }),
      );
    }
    expect(made.status).toBe(201);
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 429]);
    expect(
      answers.map((res) => res.headers.get('ratelimit-remaining')),
    ).toEqual(['2', '1', '0', '0']);
    for (const res of answers) {
      expect(res.headers.get('ratelimit-limit')).toBe('4');
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(
        1000,
      );
    }
    const limited = answers[3];
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThanOrEqual(
      900,
    );
    expect(Number.isInteger(Number(limited?.headers.get('retry-after')))).toBe(
      true,
    );
    expect(await limited?.json()).toMatchObject({
      code: 'rate_limited',
      status: 429,
    });
    // Refused requests never reach the service.
    expect(pets.received).toHaveLength(3);

    // Another account has its own bucket; the gateway's own operations count too.
    const otherAnswer = await fetch(`${gateway.url}/v1/accounts/me`, {
      headers: bearer(other.apiKey),
    });
    expect(otherAnswer.status).toBe(200);
    expect(otherAnswer.headers.get('ratelimit-remaining')).toBe('3');
    // Counted in the database the gateways share.
    const counted = await gateway.db.collection('rate_limits').countDocuments();
    expect(counted > 0).toBe(true);
  });

  it('counts an account in the shared window by reservations of a tenth of its burst', async ({
    mongo,
  }) => {
    await using stack = await limitedGateway(mongo, 100);
    const { gateway } = stack;
    const { apiKey } = await signUp(gateway.url);

    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        fetch(`${gateway.url}/v1/pets`, { headers: bearer(apiKey) }),
      ),
    );

    expect(answers.map((res) => res.status)).toEqual(
      Array.from({ length: 25 }, () => 200),
    );
    // Three reservations of 10 for 25 requests, however they arrived: what the window counts.
    const windows = await gateway.db.collection('rate_limits').find().toArray();
    const window = windows.find((counted) =>
      String(counted.key).startsWith('account:'),
    );
    expect(window?.points).toBe(30);
  });

  it('limits sign-ups per client address, one limit across /v2 and /v1', async ({
    mongo,
  }) => {
    await using gateway = await startTestGateway(mongo, {
      env: {
        SIGNUP_RATE_LIMIT_PER_MINUTE: '0.01',
        SIGNUP_RATE_LIMIT_BURST: '2',
      },
    });
    const statuses = [];
    let last: Response | undefined;
    for (const version of ['v2', 'v1', 'v2']) {
      last = await fetch(`${gateway.url}/${version}/accounts`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          email: `limited${statuses.length}@example.com`,
        }),
      });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([201, 201, 429]);
    expect(last?.headers.get('ratelimit-limit')).toBe('2');
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThanOrEqual(
      3600,
    );
    expect(await last?.json()).toMatchObject({
      code: 'rate_limited',
      status: 429,
    });
    expect(
      await gateway.db
        .collection('accounts')
        .countDocuments({ role: 'customer' }),
    ).toBe(2);
  });

  it('takes the client address from X-Forwarded-For only through the trusted proxy hops', async ({
    mongo,
  }) => {
    const signUpFrom = (url: string, forwardedFor: string, email: string) =>
      fetch(`${url}/v1/accounts`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Forwarded-For': forwardedFor,
        },
        body: JSON.stringify({ email }),
      }).then((res) => res.status);
    const limits = {
      SIGNUP_RATE_LIMIT_PER_MINUTE: '0.01',
      SIGNUP_RATE_LIMIT_BURST: '1',
    };
    {
      await using gateway = await startTestGateway(mongo, { env: limits });
      expect(
        await signUpFrom(gateway.url, '203.0.113.1', 'direct1@example.com'),
      ).toBe(201);
      expect(
        await signUpFrom(gateway.url, '203.0.113.2', 'direct2@example.com'),
      ).toBe(429);
    }
    await using gateway = await startTestGateway(mongo, {
      env: { ...limits, TRUSTED_PROXY_HOPS: '1' },
    });
    expect(
      await signUpFrom(gateway.url, '203.0.113.1', 'proxied1@example.com'),
    ).toBe(201);
    expect(
      await signUpFrom(gateway.url, '203.0.113.2', 'proxied2@example.com'),
    ).toBe(201);
    expect(
      await signUpFrom(gateway.url, '203.0.113.2', 'proxied3@example.com'),
    ).toBe(429);
    // The trusted proxy appends the address it saw: what the client wrote before it is ignored.
    expect(
      await signUpFrom(
        gateway.url,
        '198.51.100.7, 203.0.113.2',
        'spoofed@example.com',
      ),
    ).toBe(429);
    expect(
      await signUpFrom(
        gateway.url,
        '203.0.113.2, 203.0.113.3',
        'proxied4@example.com',
      ),
    ).toBe(201);
  });
});
