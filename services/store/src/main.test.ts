import { fileURLToPath } from 'node:url';
import {
  runMain,
  serviceTestEnv,
  startMongo,
  testInternalToken as internalToken,
} from '@petstore/testkit';
import { describe, expect, it } from 'vitest';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
describe('main', () => {
  it('serves with the environment’s config and exits 0 on SIGTERM', async () => {
    await using mongo = await startMongo();
    // At info, it writes the line that says where it listens.
    await using store = runMain(
      main,
      serviceTestEnv(
        mongo,
        { database: 'store', internalToken },
        { LOG_LEVEL: 'info' },
      ),
    );
    const url = await store.url();
    expect((await fetch(`${url}/ready`)).status).toBe(200);
    const inventory = await fetch(`${url}/v1/store/inventory`, {
      headers: { 'x-internal-token': internalToken },
    });
    expect(inventory.status).toBe(200);
    store.child.kill('SIGTERM');
    expect(await store.exited).toEqual([0, null]);
  });

  it('exits 1 naming the variables that are missing or invalid, without a stack trace', async () => {
    await using store = runMain(main, { PORT: 'eighty', PETS_URL: 'pets' });
    expect(await store.exited).toEqual([1, null]);
    const { stderr } = store.output();
    expect(stderr).toContain('PORT: Expected a port number');
    expect(stderr).toContain('INTERNAL_TOKEN: Required');
    expect(stderr).toContain('PETS_URL');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
