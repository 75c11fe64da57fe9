import { test } from '@petstore/testkit/vitest';
import type { Db } from 'mongodb';
import { describe, expect } from 'vitest';
import { connectMongo } from './mongo.js';
import { nextSequenceValue, SequenceBlocks } from './sequences.js';

const it = test.extend<{ db: Db }>({
  db: async ({ mongo }, use) => {
    const client = await connectMongo(mongo.uri, {
      appName: 'service-kit-test',
    });
    await use(client.db(mongo.databaseName('sequences')));
    await client.close();
  },
});

describe('nextSequenceValue', () => {
  it('hands out sequential ids from 1, each once, also when asked concurrently', async ({
    db,
  }) => {
    expect(await nextSequenceValue(db, 'pets')).toBe(1);
    const ids = await Promise.all(
      Array.from({ length: 20 }, () => nextSequenceValue(db, 'pets')),
    );
    expect([...ids].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 2),
    );
    expect(await nextSequenceValue(db, 'orders')).toBe(1);
  });

  it('hands out each id once when the first ever are asked for at once', async ({
    db,
  }) => {
    // They race to insert the counter: the server retries the upsert that loses.
    const ids = await Promise.all(
      Array.from({ length: 20 }, () => nextSequenceValue(db, 'categories')),
    );
    expect([...ids].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });
});

describe('SequenceBlocks', () => {
  it('hands out each id once across processes, taking a block per round trip', async ({
    db,
  }) => {
    const commands: string[] = [];
    const first = new SequenceBlocks(db, 'orders', 10);
    const second = new SequenceBlocks(db, 'orders', 10);
    const counters = db.collection('counters');
    const counted = async <T>(work: () => Promise<T>) => {
      const before = (await counters.findOne({ _id: 'orders' as never }))
        ?.value as number | undefined;
      const result = await work();
      commands.push(`${before ?? 0}`);
      return result;
    };
    const ids = await counted(() =>
      Promise.all(
        Array.from({ length: 25 }, (_, index) =>
          (index % 2 === 0 ? first : second).next(),
        ),
      ),
    );
    expect(new Set(ids).size).toBe(25);
    expect(Math.min(...ids)).toBeGreaterThanOrEqual(1);
    // 25 ids over two processes: 13 and 12, two blocks each (of 10), never more.
    expect((await counters.findOne({ _id: 'orders' as never }))?.value).toBe(
      40,
    );
  });

  it('grows within a process', async ({ db }) => {
    const blocks = new SequenceBlocks(db, 'pets', 3);
    const ids = [];
    for (let index = 0; index < 7; index++) ids.push(await blocks.next());
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
