import { startMongo } from '@petstore/testkit';
import { expect, it } from 'vitest';
import { connectMongo } from './mongo.js';
import { nextSequenceValue } from './sequences.js';

it('hands out sequential ids from 1, each once, also when asked concurrently', async () => {
  await using mongo = await startMongo();
  const client = await connectMongo(mongo.uri, { appName: 'service-kit-test' });
  try {
    const db = client.db(mongo.databaseName('sequences'));
    expect(await nextSequenceValue(db, 'pets')).toBe(1);
    const ids = await Promise.all(Array.from({ length: 20 }, () => nextSequenceValue(db, 'pets')));
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    expect(await nextSequenceValue(db, 'orders')).toBe(1);
  } finally {
    await client.close();
  }
});
