import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateApiKey, loadSecrets } from './secrets.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'petstore-stack-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('loadSecrets', () => {
  it('makes an admin key and an internal token once and keeps them in the data folder', async () => {
    const first = await loadSecrets(dataDir, {});
    const second = await loadSecrets(dataDir, {});

    expect(first.adminApiKey).toMatch(/^psk_[0-9A-Za-z]{40}$/);
    expect(first.internalToken.length).toBeGreaterThanOrEqual(32);
    expect(first.adminApiKeySource).toBe('generated');
    expect(second).toEqual({ ...first, adminApiKeySource: 'data directory' });
    expect(
      (await readFile(join(dataDir, 'admin-api-key'), 'utf8')).trim(),
    ).toBe(first.adminApiKey);
    expect((await stat(join(dataDir, 'admin-api-key'))).mode & 0o777).toBe(
      0o600,
    );
  });

  it('takes ADMIN_API_KEY and INTERNAL_TOKEN from the environment and stores neither', async () => {
    const env = {
      ADMIN_API_KEY: generateApiKey(),
      INTERNAL_TOKEN: 'x'.repeat(40),
    };
    const secrets = await loadSecrets(dataDir, env);

    expect(secrets).toEqual({
      adminApiKey: env.ADMIN_API_KEY,
      internalToken: env.INTERNAL_TOKEN,
      adminApiKeySource: 'environment',
    });
    await expect(stat(join(dataDir, 'admin-api-key'))).rejects.toThrow();
    await expect(stat(join(dataDir, 'internal-token'))).rejects.toThrow();
  });
});

describe('generateApiKey', () => {
  it('makes distinct psk_ keys of 40 base62 characters', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(/^psk_[0-9A-Za-z]{40}$/);
  });
});
