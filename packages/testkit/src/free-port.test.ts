import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { freePort } from './free-port.js';

it('never gives a port twice while it is claimed, each below the ephemeral range', async () => {
  // One after another: each port is free again when the next is chosen, only its claim holds it.
  const ports: number[] = [];
  for (let n = 0; n < 600; n++) ports.push(await freePort());
  expect(new Set(ports).size).toBe(ports.length);
  for (const port of ports) expect(port).toBeGreaterThanOrEqual(20_000);
  for (const port of ports) expect(port).toBeLessThan(32_768);
});

it('never gives another process a port this one claimed', async () => {
  const mine = new Set<number>();
  for (let n = 0; n < 300; n++) mine.add(await freePort());
  const program = `import('${new URL('./free-port.ts', import.meta.url).pathname}')
    .then(async ({ freePort }) => { const ports = []; for (let n = 0; n < 300; n++) ports.push(await freePort()); console.log(JSON.stringify(ports)); })`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '-e', program],
    {
      cwd: new URL('..', import.meta.url),
    },
  );
  const theirs = JSON.parse(stdout) as number[];
  expect(theirs.filter((port) => mine.has(port))).toEqual([]);
});

it('gives a port that can be listened on', async () => {
  const port = await freePort();
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  await new Promise((resolve) => server.close(resolve));
});
