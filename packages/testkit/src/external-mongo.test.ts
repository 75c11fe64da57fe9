import { MongoClient } from 'mongodb';
import { expect, it } from 'vitest';
import { startMongod } from './mongod.js';
import { startMongo } from './start-mongo.js';

it('uses MONGODB_URI as it is and drops only the databases it named on stop', async () => {
  await using shared = await startMongod();
  const client = await MongoClient.connect(shared.uri);
  try {
    await client
      .db('someone_else')
      .collection('things')
      .insertOne({ kept: true });

    const server = await startMongo({ MONGODB_URI: shared.uri });
    const name = server.databaseName('pets');
    await client.db(name).collection('pets').insertOne({ name: 'Rex' });
    await server.stop();

    const databases = (
      await client.db('admin').admin().listDatabases()
    ).databases.map((d) => d.name);
    expect(server.kind).toBe('external');
    expect(server.uri).toBe(shared.uri);
    expect(databases).toContain('someone_else');
    expect(databases).not.toContain(name);
  } finally {
    await client.close();
  }
});
