import { expect, it } from 'vitest';
import type { MongoServer } from './mongo-server.js';
import { serviceTestEnv } from './service-test-env.js';

const mongo = {
  uri: 'mongodb://127.0.0.1:27017',
  databaseName: (prefix: string) => `${prefix}_0a1b2c3d`,
} as MongoServer;

it('gives a service a database of its own, a free port, the token and no log lines', () => {
  expect(
    serviceTestEnv(mongo, { database: 'pets', internalToken: 't'.repeat(32) }),
  ).toEqual({
    MONGODB_URI: 'mongodb://127.0.0.1:27017',
    MONGODB_DB: 'pets_0a1b2c3d',
    INTERNAL_TOKEN: 't'.repeat(32),
    PORT: '0',
    LOG_LEVEL: 'silent',
  });
});

it('takes more variables, or others in place of its own', () => {
  const env = serviceTestEnv(
    mongo,
    { database: 'store', internalToken: 't'.repeat(32) },
    { LOG_LEVEL: 'info', PETS_URL: 'http://127.0.0.1:9' },
  );
  expect(env).toMatchObject({
    LOG_LEVEL: 'info',
    PETS_URL: 'http://127.0.0.1:9',
    PORT: '0',
  });
});
