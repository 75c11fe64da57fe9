import { request } from 'node:http';
import { expect } from 'vitest';
import { readAnswer, type HttpAnswer } from '@petstore/testkit';
import { expectError } from '../support/error-bodies.js';
import { rawJsonRequest } from '../support/raw-http.js';
import { resolvePath, type BadInputCase, type Caller } from './case-types.js';
import type { Fixtures } from './fixtures.js';

/** However slow the machine, a request that does not hang is answered well within this. */
const HANG_GUARD_MS = 30_000;

function keyOf(caller: Caller, fixtures: Fixtures): string | undefined {
  if (caller === 'admin') return fixtures.adminApiKey;
  if (caller === 'customer') return fixtures.customer.apiKey;
  return undefined;
}

function rawBytes(
  c: BadInputCase,
  path: string,
  apiKey: string | undefined,
  body: string,
): string {
  const lines = [
    `${c.method} ${path} ${c.httpVersion ?? 'HTTP/1.1'}`,
    'Host: 127.0.0.1',
  ];
  if (apiKey !== undefined) lines.push(`Authorization: Bearer ${apiKey}`);
  for (const [name, value] of Object.entries(c.headers ?? {}))
    lines.push(`${name}: ${value}`);
  const framed = /content-length|transfer-encoding/i.test(c.rawHeaders ?? '');
  if (body !== '' && !framed)
    lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  lines.push('Connection: close');
  return `${lines.join('\r\n')}\r\n${c.rawHeaders ?? ''}\r\n${body}`;
}

/** Uploads `body` in chunks with node:http, with no length announced unless `headers` gives one. */
function sendWithNodeHttp(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Uint8Array,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const response = new Response(
          res.statusCode === 204 ? null : Buffer.concat(chunks),
          {
            status: res.statusCode,
            headers: Object.entries(res.headers).flatMap(([name, value]) =>
              (Array.isArray(value) ? value : [value ?? '']).map(
                (item): [string, string] => [name, item],
              ),
            ),
          },
        );
        readAnswer(response).then(resolve, reject);
      });
    });
    req.setTimeout(HANG_GUARD_MS, () =>
      req.destroy(new Error('no answer in time')),
    );
    req.on('error', reject);
    const chunkSize = 16 * 1024;
    for (let at = 0; at < body.length; at += chunkSize)
      req.write(body.subarray(at, at + chunkSize));
    req.end();
  });
}

/** Sends a case as it says (fetch, a chunked upload, or raw bytes) and reads the answer. */
export async function sendCase(
  c: BadInputCase,
  baseUrl: string,
  fixtures: Fixtures,
): Promise<HttpAnswer> {
  const path = resolvePath(c.path, fixtures);
  const body = typeof c.body === 'function' ? c.body(fixtures) : c.body;
  const apiKey = keyOf(c.as ?? 'admin', fixtures);
  if (c.transport === 'raw') {
    const text =
      typeof body === 'string' ? body : new TextDecoder().decode(body);
    return rawJsonRequest(baseUrl, rawBytes(c, path, apiKey, text), {
      endAfterWriting: c.endAfterWriting,
      timeoutMs: HANG_GUARD_MS,
    });
  }
  const headers: Record<string, string> = { ...c.headers };
  if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
  const bytes =
    typeof body === 'string'
      ? new TextEncoder().encode(body)
      : (body ?? new Uint8Array());
  if (c.transport === 'stream') {
    return sendWithNodeHttp(
      new URL(`${baseUrl}${path}`),
      c.method,
      headers,
      bytes,
    );
  }
  const init: RequestInit = {
    method: c.method,
    headers,
    body,
    signal: AbortSignal.timeout(HANG_GUARD_MS),
  };
  return readAnswer(await fetch(`${baseUrl}${path}`, init));
}

/** The case's expectation, and what holds for every answer: never a 5xx; errors in the Error shape. */
export function expectAnswer(c: BadInputCase, answer: HttpAnswer): void {
  expect(answer.status, `${c.name}: never a 5xx`).toBeLessThan(500);
  const { expected } = c;
  if (expected.code) {
    expectError(answer, expected.code);
    if (expected.closes) expect(answer.headers.get('connection')).toBe('close');
  } else {
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: expected.status,
      // A 204 has no body; every other success has one.
      body: answer.status === 204 ? undefined : (expect.anything() as unknown),
    });
    if (answer.status !== 204) {
      expect(answer.headers.get('content-type')).toMatch(
        /^application\/json(;|$)/,
      );
    }
  }
}
