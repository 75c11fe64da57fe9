import { fileURLToPath } from 'node:url';
import { runMain, serviceTestEnv, testInternalToken } from '@petstore/testkit';
import { describe, expect } from 'vitest';
import { it } from './test-support/pets-service.js';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));

describe('main', () => {
  it('serves with the environment’s config and exits 0 on SIGTERM', async ({
    mongo,
  }) => {
    // At info, it writes the line that says where it listens.
    await using pets = runMain(
      main,
      serviceTestEnv(
        mongo,
        { database: 'pets', internalToken: testInternalToken },
        { LOG_LEVEL: 'info' },
      ),
    );
    const url = await pets.url();
    expect((await fetch(`${url}/ready`)).status).toBe(200);
    const list = await fetch(`${url}/v1/pets`, {
      headers: { 'x-internal-token': testInternalToken },
    });
    expect(list.status).toBe(200);
    pets.child.kill('SIGTERM');
    expect(await pets.exited).toEqual([0, null]);
  });

  it('exits 1 naming the variables that are missing or invalid, without a stack trace', async () => {
    await using pets = runMain(main, { PORT: 'eighty' });
    expect(await pets.exited).toEqual([1, null]);
    const { stderr } = pets.output();
    expect(stderr).toContain('PORT: Expected a port number');
    expect(stderr).toContain('INTERNAL_TOKEN: Required');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
