import { describe, expect } from 'vitest';
import { it } from '../test-support/gateway-harness.js';
import { ensureIndexes } from './indexes.js';

describe('ensureIndexes', () => {
  it('drops the key index the paged key list replaced, and can run again', async ({
    db,
  }) => {
    const apiKeys = db.collection('api_keys');
    // The indexes of a database the gateway made before the key list paged.
    await apiKeys.dropIndex('account_revoked_created');
    await apiKeys.createIndex(
      { accountId: 1, createdAt: 1 },
      { name: 'account_created' },
    );

    await ensureIndexes(db);
    await ensureIndexes(db);
    const names = (await apiKeys.listIndexes().toArray()).map(
      ({ name }) => name as string,
    );
    expect(names.toSorted()).toEqual([
      '_id_',
      'account_revoked_created',
      'hash_unique',
    ]);
  });
});
