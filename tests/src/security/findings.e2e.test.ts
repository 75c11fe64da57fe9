/**
 * A security review's findings against the running API, replayed black-box: each test fails on
 * the code before its fix. The slow bodies are in `slow-clients`, the deleted pet ordered while
 * pets is down in `reliability/pets-down`, the data files' modes in the stack's tests.
 */
import { callHttp, type HttpCallOptions } from '@petstore/testkit';
import { describe, expect, it } from 'vitest';
import { expectError } from '../support/error-bodies.js';
import { rawJsonRequest } from '../support/raw-http.js';
import { testStackForFile } from '../support/stack-for-file.js';
import { unthrottled } from '../support/test-stack.js';

const BURST = 40;
const api = testStackForFile({
  ...unthrottled,
  // A bucket that refills once in 100 s: what a test spends stays spent.
  RATE_LIMIT_PER_SECOND: '0.01',
  RATE_LIMIT_BURST: String(BURST),
  // Loopback URLs, where nothing listens, for subscriptions that receive nothing.
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
});

const call = (
  apiKey: string,
  method: string,
  path: string,
  options: HttpCallOptions = {},
) => callHttp(api.url, method, path, { apiKey, ...options });

describe('the security review’s findings', () => {
  it('one account’s keys share one rate limit', async () => {
    const { apiKey } = await api.signUp();
    const second = await call(apiKey, 'POST', '/v1/accounts/me/keys');
    expect(second.status).toBe(201);
    const secondKey = (second.body as { apiKey: string }).apiKey;
    let status = 200;
    for (let sent = 1; status === 200 && sent <= BURST; sent++) {
      status = (await call(apiKey, 'GET', '/v1/accounts/me')).status;
    }
    expect(status).toBe(429);
    const refused = await call(secondKey, 'GET', '/v1/accounts/me');
    expectError(refused, 'rate_limited');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('an account keeps at most 10 active keys', async () => {
    const { apiKey } = await api.signUp();
    for (let key = 2; key <= 10; key++) {
      expect((await call(apiKey, 'POST', '/v1/accounts/me/keys')).status).toBe(
        201,
      );
    }
    const refused = await call(apiKey, 'POST', '/v1/accounts/me/keys');
    expectError(refused, 'conflict');
    expect(refused.body).toMatchObject({
      message: 'an account has at most 10 active keys',
    });
  });

  it('an account keeps at most 16 webhooks', async () => {
    const { apiKey } = await api.signUp();
    const subscribe = () =>
      call(apiKey, 'POST', '/v1/webhooks', {
        body: { url: 'http://127.0.0.1:9/', events: ['message.delivered'] },
      });
    for (let webhook = 1; webhook <= 16; webhook++) {
      expect((await subscribe()).status).toBe(201);
    }
    const refused = await subscribe();
    expectError(refused, 'conflict');
    expect(refused.body).toMatchObject({
      message: 'an account has at most 16 webhooks',
    });
  });

  it('refuses a ship date before year 0000 once in UTC', async () => {
    const { apiKey } = await api.signUp();
    const order = {
      petId: 1,
      quantity: 1,
      shipDate: '0000-01-01T00:00:00+14:00',
    };
    expectError(
      await call(apiKey, 'POST', '/v1/store/orders', { body: order }),
      'validation_failed',
    );
  });

  it('answers 1 000 request headers with 431, not 502', async () => {
    const { apiKey } = await api.signUp();
    const headers = Array.from(
      { length: 1_000 },
      (_, index) => `x${index}: 1\r\n`,
    ).join('');
    const answer = await rawJsonRequest(
      api.url,
      'GET /v1/accounts/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n' +
        `Authorization: Bearer ${apiKey}\r\n${headers}\r\n`,
    );
    expectError(answer, 'headers_too_large');
  });

  it('answers a request without Host with 400 malformed_request and a request id', async () => {
    const answer = await rawJsonRequest(
      api.url,
      'GET /v1/pets HTTP/1.1\r\nConnection: close\r\n\r\n',
    );
    expectError(answer, 'malformed_request');
  });

  it('refuses a webhook URL in the deprecated IPv4-compatible range ::/96', async () => {
    const { apiKey } = await api.signUp();
    const body = { url: 'https://[::7f00:1]/', events: ['message.delivered'] };
    expectError(
      await call(apiKey, 'POST', '/v1/webhooks', { body }),
      'invalid_webhook_url',
    );
  });

  it('refuses a body on a GET instead of passing it to the service', async () => {
    const { apiKey } = await api.signUp();
    const answer = await rawJsonRequest(
      api.url,
      'GET /v1/store/inventory HTTP/1.1\r\nHost: x\r\nConnection: close\r\n' +
        `Authorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 7\r\n\r\n{"x":1}',
    );
    expectError(answer, 'validation_failed');
  });

  it('answers another method on a known path 405, whatever its body', async () => {
    const answer = await rawJsonRequest(
      api.url,
      'DELETE /v1/pets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n' +
        `Authorization: Bearer ${api.stack.adminApiKey}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 7\r\n\r\n{"x":1}',
    );
    expectError(answer, 'method_not_allowed');
  });

  it('logs none of them at error level', () => {
    const levels = api
      .logsOf('gateway')
      .map((line) => (JSON.parse(line) as { level: number }).level);
    expect(levels.length).toBeGreaterThan(0);
    expect(levels.filter((level) => level >= 50)).toEqual([]);
  });
});
