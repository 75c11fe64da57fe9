import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@petstore/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceProcess } from './service-process.js';

// A stand-in service: answers /health with the flags its `node` was started with.
const ENTRY = `
import { createServer } from 'node:http';
const server = createServer((req, res) => {
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ execArgv: process.execArgv }));
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-service-process-'));
  await writeFile(join(dir, 'main.mjs'), ENTRY);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function serviceWith(nodeArgs?: string[], entry = 'main.mjs') {
  const port = await freePort();
  return new ServiceProcess({
    name: 'probe',
    entry: join(dir, entry),
    nodeArgs,
    env: { PORT: String(port) },
    url: `http://127.0.0.1:${port}`,
    stdio: 'pipe',
  });
}

async function execArgvOf(service: ServiceProcess): Promise<string[]> {
  const res = await fetch(`${service.url}/health`);
  return ((await res.json()) as { execArgv: string[] }).execArgv;
}

describe('ServiceProcess', () => {
  it('passes nodeArgs to node before the entry point', async () => {
    const service = await serviceWith([
      '--max-old-space-size=128',
      '--no-warnings',
    ]);
    await service.start();
    try {
      expect(await execArgvOf(service)).toEqual([
        '--max-old-space-size=128',
        '--no-warnings',
      ]);
    } finally {
      await service.stop();
    }
    expect(service.running).toBe(false);
  });

  it('starts node with no flags of its own by default', async () => {
    const service = await serviceWith();
    await service.start();
    try {
      expect(await execArgvOf(service)).toEqual([]);
    } finally {
      await service.stop();
    }
  });

  it('says what a service that failed to start last wrote', async () => {
    await writeFile(
      join(dir, 'fails.mjs'),
      `console.error('the database refused: bad credentials'); process.exit(3);`,
    );
    const service = await serviceWith([], 'fails.mjs');
    await expect(service.start()).rejects.toThrow(
      /^\[stack\] probe exited during start-up \(3\): the database refused: bad credentials$/,
    );
  });
});
