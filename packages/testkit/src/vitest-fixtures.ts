import { test as base } from 'vitest';
import type { MongoServer } from './mongo-server.js';
import { startMongo } from './start-mongo.js';

/**
 * vitest's `test`, with a `mongo` fixture: one database server per test file, started when a test
 * first asks for it and stopped after the file's last test.
 */
export const test = base.extend<{ mongo: MongoServer }>({
  mongo: [
    // vitest reads the fixtures a fixture needs from the pattern of its first parameter.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const mongo = await startMongo();
      await use(mongo);
      await mongo.stop();
    },
    { scope: 'file' },
  ],
});

export const it = test;
