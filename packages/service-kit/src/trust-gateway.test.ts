import { gatewayHeaders, testInternalToken } from '@petstore/testkit';
import { describe, expect, it } from 'vitest';
import { route, startTestService } from './test-support/test-service.js';
import { callerOf } from './trust-gateway.js';

const token = testInternalToken;

const whoAmI = route('GET', '/v1/whoami', (ctx) => {
  ctx.body = { caller: callerOf(ctx) ?? null };
});

describe('gateway trust', () => {
  it('answers 401 unauthorized without the internal token', async () => {
    await using service = await startTestService([whoAmI], {
      internalToken: token,
    });
    const res = await fetch(`${service.url}/v1/whoami`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      code: 'unauthorized',
      status: 401,
    });
  });

  it('answers 401 with a wrong token of the same length or another length', async () => {
    await using service = await startTestService([whoAmI], {
      internalToken: token,
    });
    for (const wrong of [token.replace(/.$/, 'x'), `${token}x`, 'short']) {
      const res = await fetch(`${service.url}/v1/whoami`, {
        headers: { 'x-internal-token': wrong },
      });
      expect(res.status, wrong).toBe(401);
    }
  });

  it('takes the caller from the gateway headers next to the token', async () => {
    await using service = await startTestService([whoAmI], {
      internalToken: token,
    });
    const headers = gatewayHeaders({ accountId: 'acct_1', role: 'admin' });
    const res = await fetch(`${service.url}/v1/whoami`, { headers });
    expect(await res.json()).toEqual({
      caller: { accountId: 'acct_1', role: 'admin' },
    });
  });

  it('has no caller for a service-to-service call or an unknown role', async () => {
    await using service = await startTestService([whoAmI], {
      internalToken: token,
    });
    const cases: Record<string, string>[] = [
      {},
      { 'x-account-id': 'acct_1', 'x-account-role': 'root' },
    ];
    for (const headers of cases) {
      const res = await fetch(`${service.url}/v1/whoami`, {
        headers: { 'x-internal-token': token, ...headers },
      });
      expect(await res.json()).toEqual({ caller: null });
    }
  });

  it('keeps /health and /ready open for probes', async () => {
    await using service = await startTestService([whoAmI], {
      internalToken: token,
    });
    expect((await fetch(`${service.url}/health`)).status).toBe(200);
    expect((await fetch(`${service.url}/ready`)).status).toBe(200);
  });
});
