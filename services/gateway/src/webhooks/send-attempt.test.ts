import { once } from 'node:events';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { freePort, serveHttp } from '@petstore/testkit';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { sendAttempt, type Attempt } from './send-attempt.js';
import { newWebhookSecret } from './webhook-secret.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A receiver answering `status`, keeping what it was sent. */
async function receiver(status: number, headers: Record<string, string> = {}) {
  const received: Received[] = [];
  const server = await serveHttp(async (req, res) => {
    received.push({ headers: req.headers, body: await readBody(req) });
    res.writeHead(status, headers).end('thanks');
  });
  return Object.assign(server, { received });
}

function attempt(url: string, overrides: Partial<Attempt> = {}): Attempt {
  return {
    url,
    eventId: 'evt_3Jk8Qm2Lx9',
    timestamp: Math.floor(Date.now() / 1000),
    body: JSON.stringify({
      id: 'evt_3Jk8Qm2Lx9',
      type: 'order.created',
      data: { id: 7 },
    }),
    secrets: [newWebhookSecret()],
    allowPrivate: true,
    ...overrides,
  };
}

function verify(secret: string, { headers, body }: Received): unknown {
  return new Webhook(secret).verify(body, headers as Record<string, string>);
}

describe('sendAttempt', () => {
  it('delivers on a 2xx, signed so that standardwebhooks verifies it', async () => {
    await using server = await receiver(200);
    const sent = attempt(`${server.url}/hooks?source=petstore`);

    await expect(sendAttempt(sent)).resolves.toEqual({
      ok: true,
      statusCode: 200,
    });

    expect(server.received).toHaveLength(1);
    const [delivery] = server.received;
    expect(delivery!.body).toBe(sent.body);
    expect(delivery!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Petstore-Webhooks/1.0',
      'webhook-id': sent.eventId,
      'webhook-timestamp': String(sent.timestamp),
      'webhook-signature': expect.stringMatching(
        /^v1,[A-Za-z0-9+/]+=*$/,
      ) as string,
    });
    expect(verify(sent.secrets[0]!, delivery!)).toEqual(JSON.parse(sent.body));
  });

  it('signs with both secrets during a rotation, each verifying on its own', async () => {
    await using server = await receiver(204);
    const [newest, previous] = [newWebhookSecret(), newWebhookSecret()];

    const result = await sendAttempt(
      attempt(server.url, { secrets: [newest, previous] }),
    );

    expect(result).toEqual({ ok: true, statusCode: 204 });
    const [delivery] = server.received;
    expect(delivery!.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    const payload: unknown = JSON.parse(delivery!.body);
    expect(verify(newest, delivery!)).toEqual(payload);
    expect(verify(previous, delivery!)).toEqual(payload);
    expect(() => verify(newWebhookSecret(), delivery!)).toThrow(
      'No matching signature found',
    );
  });

  it('fails with the status of any other answer', async () => {
    await using server = await receiver(500);
    await expect(sendAttempt(attempt(server.url))).resolves.toEqual({
      ok: false,
      statusCode: 500,
    });
  });

  it('does not follow a redirect', async () => {
    await using target = await receiver(200);
    await using server = await receiver(302, {
      location: `${target.url}/elsewhere`,
    });

    await expect(sendAttempt(attempt(server.url))).resolves.toEqual({
      ok: false,
      statusCode: 302,
      error: 'redirects are not followed',
    });
    expect(server.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    await using server = await serveHttp(() => undefined);
    await expect(
      sendAttempt(attempt(server.url, { timeoutMs: 50 })),
    ).resolves.toEqual({
      ok: false,
      statusCode: null,
      error: 'timed out after 0.05 s',
    });
  });

  it('reads at most 64 KiB of an answer, then closes the connection', async () => {
    const total = 32 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let written = 0;
    let closed = false;
    await using server = await serveHttp(async (req, res) => {
      await readBody(req);
      const gone = once(res, 'close').then(() => {
        closed = true;
      });
      res.writeHead(200, { 'content-length': total });
      while (!closed && written < total) {
        written += chunk.length;
        if (!res.write(chunk)) await Promise.race([once(res, 'drain'), gone]);
      }
      res.end();
    });

    await expect(sendAttempt(attempt(server.url))).resolves.toEqual({
      ok: true,
      statusCode: 200,
    });
    await expect.poll(() => closed).toBe(true);
    expect(written).toBeLessThan(total);
  });

  it('fails, without a status, when nothing listens', async () => {
    const port = await freePort();
    await expect(
      sendAttempt(attempt(`http://127.0.0.1:${port}/`)),
    ).resolves.toEqual({
      ok: false,
      statusCode: null,
      error: expect.stringContaining('ECONNREFUSED') as string,
    });
  });

  it('refuses a private address unless allowed, before connecting to it', async () => {
    await using server = await receiver(200);
    const address = `https://127.0.0.1:${server.port}/`;
    const name = `https://localhost:${server.port}/`;

    await expect(
      sendAttempt(attempt(address, { allowPrivate: false })),
    ).resolves.toEqual({
      ok: false,
      statusCode: null,
      error: 'webhook URL address 127.0.0.1 (loopback) is not a public address',
    });
    await expect(
      sendAttempt(attempt(name, { allowPrivate: false })),
    ).resolves.toEqual({
      ok: false,
      statusCode: null,
      error: expect.stringMatching(
        /^webhook URL host localhost resolves to .* \(loopback\)/,
      ) as string,
    });
    await expect(
      sendAttempt(
        attempt(server.url.replace('127.0.0.1', 'localhost'), {
          allowPrivate: false,
        }),
      ),
    ).resolves.toEqual({
      ok: false,
      statusCode: null,
      error: 'webhook URL must use https',
    });
    expect(server.received).toHaveLength(0);
  });
});
