import { executionAsyncId } from 'node:async_hooks';
import { startMongo } from '@petstore/testkit';
import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import {
  databaseGauge,
  dbOperationDuration,
  monitorMongoCommands,
  registry,
} from './telemetry.js';

/**
 * Whether Node runs async hooks for promises: with them, a promise's reaction runs under an id of
 * its own; without them, under the id of whatever was running.
 */
async function promisesTracked(): Promise<boolean> {
  const outside = executionAsyncId();
  const inside = await Promise.resolve().then(() => executionAsyncId());
  return inside !== outside;
}

async function countedCommands(collection: string): Promise<number> {
  const { values } = await dbOperationDuration.get();
  return values
    .filter(
      ({ metricName, labels }) =>
        metricName?.endsWith('_count') &&
        labels.db_collection_name === collection,
    )
    .reduce((sum, { value }) => sum + value, 0);
}

describe('databaseGauge', () => {
  it('reads at each scrape without counting its reads, and leaves no async hook running', async () => {
    const mongo = await startMongo();
    const client = await new MongoClient(mongo.uri, {
      monitorCommands: true,
    }).connect();
    try {
      monitorMongoCommands(client, { spans: false, durations: true });
      const queue = client
        .db(mongo.databaseName('telemetry'))
        .collection('queue');
      await queue.insertMany([{ waiting: true }, { waiting: true }]);
      databaseGauge('test_queue_depth', 'Waiting documents.', () =>
        queue.countDocuments(),
      );
      expect(await promisesTracked()).toBe(false);
      const inserted = await countedCommands('queue');

      expect(
        await registry.getSingleMetricAsString('test_queue_depth'),
      ).toContain('test_queue_depth 2');
      expect(await countedCommands('queue')).toBe(inserted);
      // The hook a scrape needs is gone with it: requests after a scrape pay nothing for it.
      expect(await promisesTracked()).toBe(false);

      await queue.countDocuments();
      expect(await countedCommands('queue')).toBe(inserted + 1);
    } finally {
      registry.removeSingleMetric('test_queue_depth');
      await client.close();
      await mongo.stop();
    }
  });
});
