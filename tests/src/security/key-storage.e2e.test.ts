import type { Document } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../support/catalogue.js';
import { allDocuments } from '../support/collections.js';
import { databaseNames, type DatabaseReader } from '../support/databases.js';
import { PIECE_LENGTH, pieces, sha256 } from '../support/secrets.js';
import { testStackForFile } from '../support/stack-for-file.js';

// API.md: "Only a SHA-256 hash of a key is stored; the key itself is shown once." Read every
// document the API stores and look for any piece of any key that was ever issued.

/** The first piece of `secret` that `text` contains, if any. */
function leakedPiece(text: string, secret: string): string | undefined {
  return pieces(secret).find((piece) => text.includes(piece));
}

interface IssuedKey {
  id: string;
  apiKey: string;
  accountId: string;
}

let db: DatabaseReader;
const issued: IssuedKey[] = [];
let revokedKeyId: string;

const api = testStackForFile({ KEY_USAGE_FLUSH_MS: '100' });

beforeAll(async () => {
  db = await api.databases();
  for (let n = 0; n < 3; n++) {
    const res = ok(
      await api.client().accounts.createAccount({
        body: { email: `keys.${n}.${Date.now()}@example.com` },
      }),
      201,
    );
    issued.push({ id: '', apiKey: res.body.apiKey, accountId: res.body.id });
    const customer = api.client(res.body.apiKey);
    for (let k = 0; k < 2; k++) {
      const key = ok(await customer.accounts.createKey(), 201);
      issued.push({
        id: key.body.id,
        apiKey: key.body.apiKey,
        accountId: res.body.id,
      });
    }
    // Every key is used once, so lastUsedAt gets written too.
    ok(await customer.accounts.getMe(), 200);
  }
  const adminKey = ok(await api.admin.accounts.createKey(), 201);
  issued.push({
    id: adminKey.body.id,
    apiKey: adminKey.body.apiKey,
    accountId: 'acct_admin',
  });
  // One revoked key: kept for the record, and just as hashed.
  const toRevoke = issued[1];
  if (!toRevoke) throw new Error('no key to revoke');
  revokedKeyId = toRevoke.id;
  const owner = api.client(issued[0]?.apiKey);
  expect(
    (await owner.accounts.revokeKey({ params: { keyId: toRevoke.id } })).status,
  ).toBe(204);
  // Messages that mention nothing secret, so the messages collection has documents too.
  await owner.messages.sendMessage({ body: { message: 'hello' } });
});

/** Every document of every database of the stack, with where it was found. */
async function everyStoredDocument(): Promise<
  { where: string; text: string }[]
> {
  const found = [];
  for (const database of Object.values(databaseNames)) {
    const snapshot = await db.snapshot(database);
    for (const [collection, documents] of Object.entries(snapshot)) {
      for (const document of documents) {
        found.push({
          where: `${database}.${collection}`,
          text: JSON.stringify(document),
        });
      }
    }
  }
  return found;
}

async function keyDocuments(): Promise<Document[]> {
  return allDocuments(db, databaseNames.gateway, 'api_keys');
}

describe('API keys at rest', () => {
  it('are nowhere in any database, not even a 16-character piece of one', async () => {
    const secrets = [
      ...issued.map(({ apiKey }) => apiKey),
      api.stack.adminApiKey,
    ];
    const documents = await everyStoredDocument();
    expect(
      documents.some(
        ({ where }) => where === `${databaseNames.gateway}.api_keys`,
      ),
    ).toBe(true);
    for (const { where, text } of documents) {
      for (const secret of secrets) {
        expect({ where, leaked: leakedPiece(text, secret) }).toEqual({
          where,
          leaked: undefined,
        });
      }
    }
  });

  it('are stored as the SHA-256 of the key, one record per key issued', async () => {
    const stored = await keyDocuments();
    for (const { id, apiKey, accountId } of issued) {
      const record = stored.find(({ hash }) => hash === sha256(apiKey));
      expect(record).toMatchObject({ accountId, hash: sha256(apiKey) });
      if (id !== '') expect(record?._id).toBe(id);
      // What is kept in clear is a short prefix to recognise the key by, nothing more.
      expect(apiKey.startsWith(String(record?.prefix))).toBe(true);
      expect(String(record?.prefix).length).toBeLessThan(PIECE_LENGTH);
    }
  });

  it('keep a revoked key only as its hash too', async () => {
    const revoked = (await keyDocuments()).find(
      ({ _id }) => _id === revokedKeyId,
    );
    const key = issued.find(({ id }) => id === revokedKeyId);
    expect(revoked).toMatchObject({ hash: sha256(key?.apiKey ?? '') });
    expect(revoked?.revokedAt).toBeInstanceOf(Date);
  });

  it('store the admin key from the environment as its hash', async () => {
    const adminKeys = (await keyDocuments()).filter(
      ({ accountId }) => accountId === 'acct_admin',
    );
    const fromEnvironment = adminKeys.find(
      ({ hash }) => hash === sha256(api.stack.adminApiKey),
    );
    expect(fromEnvironment).toMatchObject({
      _id: 'key_admin',
      revokedAt: null,
    });
    for (const record of adminKeys) {
      expect(
        leakedPiece(JSON.stringify(record), api.stack.adminApiKey),
      ).toBeUndefined();
    }
  });

  it('keep only hex SHA-256 digests and no field of another kind', async () => {
    const stored = await keyDocuments();
    expect(stored.length).toBe(issued.length + 1); // and the admin key from the environment
    for (const record of stored) {
      expect(record.hash).toMatch(/^[0-9a-f]{64}$/);
      // No field beyond these, where a key could hide.
      const fields = [
        '_id',
        'accountId',
        'createdAt',
        'hash',
        'lastUsedAt',
        'prefix',
        'revokedAt',
        'role',
      ];
      expect(
        Object.keys(record).filter((field) => !fields.includes(field)),
      ).toEqual([]);
    }
  });

  it('never keep the internal token either', async () => {
    for (const { where, text } of await everyStoredDocument()) {
      expect({
        where,
        leaked: leakedPiece(text, api.stack.internalToken),
      }).toEqual({
        where,
        leaked: undefined,
      });
    }
  });
});
