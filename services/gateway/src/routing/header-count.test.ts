import { request } from 'node:http';
import { describe, expect } from 'vitest';
import { it } from '../test-support/gateway-harness.js';

/** GET /v1/pets with `count` headers in all, Host and Connection among them; its status and body. */
function getWithHeaders(
  url: string,
  count: number,
): Promise<{ status: number; body: string }> {
  const headers = {
    host: new URL(url).host,
    connection: 'close',
    ...Object.fromEntries(
      Array.from({ length: count - 2 }, (_, index) => [
        `x-header-${index}`,
        'x',
      ]),
    ),
  };
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/pets`, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the number of request headers', () => {
  it('is 100 at most: one more is 431 headers_too_large', async ({
    gateway,
  }) => {
    expect((await getWithHeaders(gateway.url, 100)).status).toBe(401);
    const refused = await getWithHeaders(gateway.url, 101);
    expect(refused.status).toBe(431);
    expect(JSON.parse(refused.body)).toMatchObject({
      code: 'headers_too_large',
      status: 431,
      message: 'a request may carry at most 100 headers',
    });
  });
});
