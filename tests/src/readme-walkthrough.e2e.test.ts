import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { testStackForFile } from './support/stack-for-file.js';

const run = promisify(execFile);

/** The shell block of the README's walkthrough, exactly as a reader copies it. */
async function walkthrough(): Promise<string> {
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Walkthrough'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README.md has no sh block under ## Walkthrough');
  return block;
}

const api = testStackForFile();

it('runs the README walkthrough verbatim against a running API', async () => {
  const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', await walkthrough()], {
    env: { ...process.env, BASE: api.url, ADMIN_KEY: api.stack.adminApiKey },
  });
  const [me, message, inventory, order, stock, orders] = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

  expect(me).toMatchObject({ name: 'Jane', role: 'customer' });
  // Delivery itself is waited for in the quickstart test; the README only sleeps a second.
  expect(message).toMatchObject({ message: 'Hello, Petstore!' });
  expect(['queued', 'delivered']).toContain(message?.status);
  expect(inventory).toMatchObject({ quantity: 3, status: 'available' });
  expect(order).toMatchObject({ quantity: 1, complete: false });
  expect(stock).toMatchObject({ petId: order?.petId, quantity: 2, status: 'available' });
  expect(orders).toEqual([order]);
});
