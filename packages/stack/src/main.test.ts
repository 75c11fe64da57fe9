import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { freePort } from '@petstore/testkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url));
/** `pnpm start` builds what it needs first: nothing, when the test command has just built it. */
const START_TIMEOUT_MS = 240_000;

interface Started {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** Everything it wrote so far, stdout and stderr. */
  output: () => string;
  exited: Promise<number | string | null>;
  /** The gateway's, pets' and store's addresses. */
  urls: string[];
}

let dataDir: string;
let started: Started | undefined;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'petstore-pnpm-start-'));
});
afterEach(async () => {
  // A failed test leaves nothing running: the services end with the stack (see spawnGuarded).
  if (started?.child.exitCode === null)
    process.kill(-(started.child.pid ?? 0), 'SIGKILL');
  await started?.exited;
  started = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

/** `pnpm start` as a terminal runs it: a process group of its own, the terminal's foreground. */
async function pnpmStart(env: Record<string, string> = {}): Promise<Started> {
  const ports = await Promise.all([freePort(), freePort(), freePort()]);
  const [gateway, pets, store] = ports.map(String);
  const child = spawn('pnpm', ['start'], {
    cwd: REPOSITORY,
    env: {
      ...process.env,
      PORT: gateway,
      PETS_PORT: pets,
      STORE_PORT: store,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => {
      resolve(code ?? signal);
    }),
  );
  started = {
    child,
    output: () => output,
    exited,
    urls: ports.map((port) => `http://127.0.0.1:${port}`),
  };
  await vi.waitUntil(
    () =>
      output.includes('Ctrl-C stops everything.') || child.exitCode !== null,
    {
      timeout: START_TIMEOUT_MS,
      interval: 200,
    },
  );
  expect(child.exitCode, output).toBeNull();
  return started;
}

const answers = (url: string) =>
  fetch(`${url}/health`).then(
    () => true,
    () => false,
  );

async function noneAnswers(urls: string[]): Promise<void> {
  expect(await Promise.all(urls.map(answers))).toEqual(urls.map(() => false));
}

/** A receiver on a loopback port: resolves with the first request's headers and body. */
async function loopbackReceiver() {
  let received!: (request: {
    headers: IncomingMessage['headers'];
    body: string;
  }) => void;
  const request = new Promise<Parameters<typeof received>[0]>((resolve) => {
    received = resolve;
  });
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      res.writeHead(204).end();
      received({ headers: req.headers, body });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    request,
    [Symbol.dispose]: () => server.close(),
  };
}

/** An account's key and a webhook of its own to `url`: the answer to creating it. */
async function subscribe(gateway: string, url: string) {
  const account = await fetch(`${gateway}/v1/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'hooks@example.com' }),
  });
  const { apiKey } = (await account.json()) as { apiKey: string };
  const headers = {
    authorization: `Bearer ${apiKey}`,
    'content-type': 'application/json',
  };
  const webhook = await fetch(`${gateway}/v1/webhooks`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url, events: ['order.created'] }),
  });
  return { headers, webhook };
}

describe('pnpm start', () => {
  it(
    'prints the address of the API, which answers and takes loopback webhooks; on Ctrl-C stops everything and exits 0',
    async () => {
      const { child, output, exited, urls } = await pnpmStart();
      const [gateway] = urls;
      expect(output()).toContain(`Petstore API  ${gateway}/v2`);
      const index = await fetch(`${gateway}/v2`);
      expect(index.status).toBe(200);
      expect(await index.json()).toMatchObject({ docs: `${gateway}/docs` });

      // A receiver on this machine may be subscribed, and its test event arrives signed.
      expect(output()).toContain(
        'Webhooks      may go to receivers on this machine',
      );
      using receiver = await loopbackReceiver();
      const { headers, webhook } = await subscribe(gateway ?? '', receiver.url);
      expect(webhook.status).toBe(201);
      const { id, secret } = (await webhook.json()) as {
        id: string;
        secret: string;
      };
      const sent = await fetch(`${gateway}/v1/webhooks/${id}/test`, {
        method: 'POST',
        headers,
      });
      expect(sent.status).toBe(202);
      const { headers: signed, body } = await receiver.request;
      const signedContent = [
        signed['webhook-id'],
        signed['webhook-timestamp'],
        body,
      ].join('.');
      const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
      const signature = createHmac('sha256', key)
        .update(signedContent)
        .digest('base64');
      expect(signed['webhook-signature']).toBe(`v1,${signature}`);
      expect(JSON.parse(body)).toMatchObject({
        type: 'webhook.test',
        data: { id },
      });

      // What a terminal does on Ctrl-C: SIGINT to every process of the foreground group.
      process.kill(-(child.pid ?? 0), 'SIGINT');
      expect(await exited, output()).toBe(0);
      expect(output()).not.toContain('ELIFECYCLE');
      expect(output()).not.toContain('stopping everything');
      await noneAnswers(urls);
    },
    START_TIMEOUT_MS + 30_000,
  );

  it(
    'refuses loopback webhooks when told to; stops everything and exits 0 on SIGTERM',
    async () => {
      const { child, output, exited, urls } = await pnpmStart({
        WEBHOOK_ALLOW_PRIVATE_URLS: 'false',
      });
      // Told so, it refuses receivers on this machine.
      expect(output()).toContain('Webhooks      only to public addresses');
      const { webhook } = await subscribe(
        urls[0] ?? '',
        'http://127.0.0.1:9/hooks',
      );
      expect(webhook.status).toBe(422);
      child.kill('SIGTERM');
      expect(await exited, output()).toBe(0);
      expect(output()).not.toContain('ELIFECYCLE');
      await noneAnswers(urls);
    },
    START_TIMEOUT_MS + 30_000,
  );
});
