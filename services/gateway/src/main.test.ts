import { fileURLToPath } from 'node:url';
import { runMain, testInternalToken } from '@petstore/testkit';
import { MongoClient } from 'mongodb';
import { describe, expect } from 'vitest';
import {
  ADMIN_API_KEY,
  bearer,
  signUp,
} from './test-support/gateway-harness.js';
import { it } from '@petstore/testkit/vitest';

const mainPath = fileURLToPath(new URL('./main.ts', import.meta.url));

describe('main', () => {
  it('serves from the environment, and on SIGTERM writes pending key uses and exits 0', async ({
    mongo,
  }) => {
    const database = mongo.databaseName('gateway');
    const gateway = runMain(mainPath, {
      PORT: '0',
      MONGODB_URI: mongo.uri,
      MONGODB_DB: database,
      INTERNAL_TOKEN: testInternalToken,
      ADMIN_API_KEY,
      KEY_USAGE_FLUSH_MS: '3600000',
      LOG_LEVEL: 'info',
    });
    try {
      const url = await gateway.url();
      const { apiKey, accountId } = await signUp(url);
      expect(
        (await fetch(`${url}/v1/accounts/me`, { headers: bearer(apiKey) }))
          .status,
      ).toBe(200);

      gateway.child.kill('SIGTERM');
      expect(await gateway.exited).toEqual([0, null]);
      const client = await new MongoClient(mongo.uri).connect();
      try {
        const key = await client
          .db(database)
          .collection('api_keys')
          .findOne({ accountId });
        expect(key?.lastUsedAt).toBeInstanceOf(Date);
      } finally {
        await client.close();
      }
      expect(gateway.output().stdout).not.toContain(apiKey);
      expect(gateway.output().stdout).not.toContain(ADMIN_API_KEY);
    } finally {
      gateway.child.kill('SIGKILL');
    }
  });

  it('exits 1 naming every bad variable, without a stack trace', async () => {
    const gateway = runMain(mainPath, {
      PORT: 'eighty',
      ADMIN_API_KEY: 'secret-but-malformed',
    });
    expect(await gateway.exited).toEqual([1, null]);
    const { stderr } = gateway.output();
    expect(stderr).toContain('PORT: Expected a port number');
    expect(stderr).toContain('INTERNAL_TOKEN');
    expect(stderr).toContain('ADMIN_API_KEY');
    expect(stderr).not.toContain('secret-but-malformed');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
