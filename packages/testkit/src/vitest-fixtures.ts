import { test as base } from 'vitest';
import { fileFixture } from './file-fixture.js';
import type { MongoServer } from './mongo-server.js';
import { startMongo } from './start-mongo.js';

/**
 * vitest's `test`, with a `mongo` fixture: one database server per test file, started when a test
 * first asks for it and stopped after the file's last test.
 */
export const test = base.extend<{ mongo: MongoServer }>({
  mongo: fileFixture(() => startMongo()),
});

export const it = test;
