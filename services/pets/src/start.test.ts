import { callHttp, startMongo } from '@petstore/testkit';
import { MongoClient } from 'mongodb';
import { describe, expect, it, vi } from 'vitest';
import { startPets } from './start.js';
import { testConfig } from './test-support/pets-service.js';

describe('startPets', () => {
  it('serves /health and /ready, and /ready answers 503 once the database stops', async () => {
    const mongo = await startMongo();
    try {
      const pets = await startPets(testConfig(mongo), { signals: [] });
      try {
        expect(pets.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        for (const path of ['/health', '/ready']) {
          const answer = await callHttp(pets.url, 'GET', path, {
            as: 'nobody',
          });
          expect(answer).toMatchObject({ status: 200, body: { status: 'ok' } });
        }

        await mongo.stop();

        const ready = await vi.waitFor(
          async () => {
            const answer = await callHttp(pets.url, 'GET', '/ready', {
              as: 'nobody',
            });
            expect(answer.status).toBe(503);
            return answer;
          },
          { timeout: 15_000, interval: 100 },
        );
        expect(ready).toMatchObject({
          status: 503,
          body: {
            code: 'service_unavailable',
            message: 'pets is not ready: database unavailable',
          },
        });
        expect(
          await callHttp(pets.url, 'GET', '/health', { as: 'nobody' }),
        ).toMatchObject({
          status: 200,
        });
      } finally {
        await pets.close();
      }
    } finally {
      await mongo.stop();
    }
  });

  it('creates its indexes at start-up, and starting again on the same database keeps them', async () => {
    await using mongo = await startMongo();
    const config = testConfig(mongo);
    await (await startPets(config, { signals: [] })).close();
    const again = await startPets(config, { signals: [] });
    await again.close();

    const client = await new MongoClient(mongo.uri).connect();
    try {
      const db = client.db(config.mongo.database);
      const keys = async (name: string) =>
        (await db.collection(name).indexes()).map((index) => ({
          key: index.key,
          unique: index.unique === true,
        }));
      expect(await keys('pets')).toEqual(
        expect.arrayContaining([
          { key: { status: 1, _id: 1 }, unique: false },
          { key: { categoryId: 1, _id: 1 }, unique: false },
        ]),
      );
      expect(await keys('categories')).toEqual(
        expect.arrayContaining([{ key: { nameKey: 1 }, unique: true }]),
      );
    } finally {
      await client.close();
    }
  });

  it('listens on the port it is given, over the one of the config', async () => {
    await using mongo = await startMongo();
    const pets = await startPets(testConfig(mongo, { PORT: '1' }), {
      signals: [],
      port: 0,
    });
    try {
      expect(pets.url).not.toMatch(/:1$/);
      expect(
        (await callHttp(pets.url, 'GET', '/health', { as: 'nobody' })).status,
      ).toBe(200);
    } finally {
      await pets.close();
    }
  });
});
