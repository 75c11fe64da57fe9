import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { testStackForFile } from './support/stack-for-file.js';

const run = promisify(execFile);

/** The shell block of the README's walkthrough, exactly as a reader copies it. */
async function walkthrough(): Promise<string> {
  const readme = await readFile(
    new URL('../../README.md', import.meta.url),
    'utf8',
  );
  const section = readme.slice(readme.indexOf('## Walkthrough'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README.md has no sh block under ## Walkthrough');
  return block;
}

const api = testStackForFile();

/** Each `Label: JSON` line the walkthrough prints, by label, in order. */
function labelled(stdout: string): Map<string, unknown> {
  return new Map(
    stdout
      .trim()
      .split('\n')
      .map((line) => {
        const [, label = line, json = ''] =
          /^([^:]+):\s+(.*)$/.exec(line) ?? [];
        return [label, JSON.parse(json) as unknown] as const;
      }),
  );
}

interface Failure {
  code: number;
  stdout: string;
  stderr: string;
}

it('runs the README walkthrough verbatim against a running API, labelling what it prints', async () => {
  // No shell options of the test's own: the block stops at a failure by itself.
  const { stdout } = await run('bash', ['-c', await walkthrough()], {
    env: { ...process.env, BASE: api.url, ADMIN_KEY: api.stack.adminApiKey },
  });
  const printed = labelled(stdout);
  expect([...printed.keys()]).toEqual([
    'Account',
    'Message',
    'Stock',
    'Order',
    'Order, retried',
    'Stock now',
    'My orders',
  ]);
  expect(printed.get('Account')).toMatchObject({
    name: 'Jane',
    role: 'customer',
  });
  expect(printed.get('Message')).toMatchObject({
    message: 'Hello, Petstore!',
    status: 'delivered',
  });
  expect(printed.get('Stock')).toMatchObject({
    quantity: 3,
    status: 'available',
  });
  const order = printed.get('Order') as { id: number; petId: number };
  expect(order).toMatchObject({ quantity: 1, complete: false });
  // The retry with the same Idempotency-Key answers the same order and orders nothing more.
  expect(printed.get('Order, retried')).toEqual(order);
  expect(printed.get('Stock now')).toMatchObject({
    petId: order.petId,
    quantity: 2,
    status: 'available',
  });
  expect(printed.get('My orders')).toEqual([order]);
});

it('stops at once, saying why, when run outside the repository root without ADMIN_KEY', async () => {
  const failed = (await run('bash', ['-c', await walkthrough()], {
    cwd: tmpdir(),
    env: { ...process.env, BASE: api.url, ADMIN_KEY: '' },
  }).then(
    () => undefined,
    (error: unknown) => error,
  )) as Failure | undefined;
  expect(failed).toMatchObject({ code: 1, stdout: '' });
  expect(failed?.stderr).toContain('No .data/admin-api-key here');
});

it('stops at the first error answer, showing its body', async () => {
  const failed = (await run('bash', ['-c', await walkthrough()], {
    env: {
      ...process.env,
      BASE: api.url,
      ADMIN_KEY: 'psk_NotTheAdminKey0123456789abcdefABCDEF',
    },
  }).then(
    () => undefined,
    (error: unknown) => error,
  )) as Failure | undefined;
  expect(failed?.code).toBe(1);
  expect(failed?.stderr).toContain('"code":"unauthorized"');
  expect(failed?.stdout).not.toContain('Stock:');
});
