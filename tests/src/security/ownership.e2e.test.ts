import { randomBytes } from 'node:crypto';
import type { ErrorCode, PetstoreClient } from '@petstore/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { callHttp, type HttpAnswer } from '@petstore/testkit';
import { ok, stockedPet } from '../support/catalogue.js';
import { allDocuments } from '../support/collections.js';
import { databaseNames, type DatabaseReader } from '../support/databases.js';
import { expectError } from '../support/error-bodies.js';
import { unthrottled, type SignedUp } from '../support/test-stack.js';
import { testStackForFile } from '../support/stack-for-file.js';

// API.md: "Another account's order or message is 404 not_found, never 403 (no existence leaks)."
// Bob walks every id there is; what he gets for Alice's things must be exactly what he gets for
// things that never existed, and nothing of hers may change.

let db: DatabaseReader;
let alice: SignedUp;
let bob: SignedUp;
let petId: number;
let aliceOrders: number[];
let bobOrders: number[];
let adminOrders: number[];
let aliceMessages: string[];
let aliceKeys: string[];

const api = testStackForFile(unthrottled);

beforeAll(async () => {
  db = await api.databases();
  alice = await api.signUp();
  bob = await api.signUp();
  ({ petId } = await stockedPet(api.admin, 1_000));
  const order = async (client: PetstoreClient) =>
    ok(await client.orders.placeOrder({ body: { petId, quantity: 1 } }), 201)
      .body.id ?? -1;
  aliceOrders = [await order(alice.api), await order(alice.api)];
  bobOrders = [await order(bob.api)];
  adminOrders = [await order(api.admin)];
  aliceOrders.push(await order(alice.api));
  // One of Alice's orders is complete, so every state an order can be in is walked.
  const completed = aliceOrders[1] ?? -1;
  ok(
    await api.admin.orders.updateOrder({
      params: { orderId: String(completed) },
      body: { complete: true },
    }),
    200,
  );
  aliceMessages = [];
  for (const message of ['first', 'second']) {
    aliceMessages.push(
      ok(await alice.api.messages.sendMessage({ body: { message } }), 202).body
        .id,
    );
  }
  ok(await alice.api.accounts.createKey(), 201);
  aliceKeys = ok(await alice.api.accounts.listKeys(), 200).body.map(
    ({ id }) => id,
  );
});

/** What a client learns from an answer, with the id it asked for written as `{id}`. */
function whatItSays(answer: HttpAnswer, id: number | string) {
  const { message, ...rest } = answer.body as Record<string, unknown>;
  delete rest.requestId;
  const asked = new RegExp(`\\b${String(id)}\\b`, 'g');
  const headerNames = [...answer.headers.keys()]
    .filter(
      (name) => !['date', 'x-request-id', 'content-length'].includes(name),
    )
    .sort();
  return {
    status: answer.status,
    body: { ...rest, message: String(message).replace(asked, '{id}') },
    headerNames,
  };
}

/**
 * Sends `send(id)` for each of `ids`: every answer must be `code` and say exactly what the answer
 * for `neverIssued` says, but for the id.
 */
async function expectEachAsNeverIssued<Id extends number | string>(
  send: (id: Id) => Promise<HttpAnswer>,
  ids: Id[],
  neverIssued: Id,
  code: ErrorCode,
): Promise<void> {
  const unknown = whatItSays(await send(neverIssued), neverIssued);
  for (const id of ids) {
    const answer = await send(id);
    expectError(answer, code);
    expect({ id, says: whatItSays(answer, id) }).toEqual({ id, says: unknown });
  }
}

async function storeState() {
  return {
    orders: await allDocuments(db, databaseNames.store, 'orders'),
    inventory: await allDocuments(db, databaseNames.store, 'inventory'),
  };
}

/** Every order id issued so far, and a few that never were. */
async function everyOrderId(): Promise<number[]> {
  const issued = (await allDocuments(db, databaseNames.store, 'orders')).map(
    ({ _id }) => _id as unknown as number,
  );
  const last = Math.max(...issued);
  return Array.from({ length: last + 3 }, (_, i) => i + 1);
}

describe('another account’s orders', () => {
  it('answer 404 to every id but one’s own, exactly as ids never issued do', async () => {
    const ids = await everyOrderId();
    const neverIssued = ids.at(-1) ?? -1;
    const unknown = whatItSays(
      await callHttp(api.url, 'GET', `/v1/store/orders/${neverIssued}`, {
        apiKey: bob.apiKey,
      }),
      neverIssued,
    );
    for (const id of ids) {
      const answer = await callHttp(api.url, 'GET', `/v1/store/orders/${id}`, {
        apiKey: bob.apiKey,
      });
      if (bobOrders.includes(id)) {
        expect(answer).toMatchObject({ status: 200, body: { id } });
        continue;
      }
      expectError(answer, 'not_found');
      expect({ id, says: whatItSays(answer, id) }).toEqual({
        id,
        says: unknown,
      });
    }
  });

  it('are never listed, whatever the filter, page or cursor', async () => {
    const queries = [
      '',
      `?petId=${petId}`,
      '?complete=true',
      '?complete=false',
      `?petId=${petId}&complete=true&limit=1`,
      '?limit=1',
      '?limit=100',
    ];
    // Hand-made cursors, starting after every id there is.
    for (const id of [0, ...(await everyOrderId())]) {
      queries.push(`?cursor=${Buffer.from(String(id)).toString('base64url')}`);
    }
    for (const query of queries) {
      // Follow every page.
      let path: string | undefined = `/v1/store/orders${query}`;
      const seen: number[] = [];
      for (let pages = 0; path !== undefined && pages < 50; pages++) {
        const answer: HttpAnswer = await callHttp(api.url, 'GET', path, {
          apiKey: bob.apiKey,
        });
        expect({ query, status: answer.status }).toEqual({
          query,
          status: 200,
        });
        seen.push(...(answer.body as { id: number }[]).map(({ id }) => id));
        const next = /<([^>]+)>;\s*rel="next"/.exec(
          answer.headers.get('link') ?? '',
        )?.[1];
        const url: URL | undefined =
          next === undefined ? undefined : new URL(next, `${api.url}${path}`);
        path = url && `${url.pathname}${url.search}`;
      }
      expect({
        query,
        foreign: seen.filter((id) => !bobOrders.includes(id)),
      }).toEqual({
        query,
        foreign: [],
      });
    }
  });

  it('cannot be cancelled: 404 for each, like ids never issued, and nothing changes', async () => {
    const before = await storeState();
    const ids = (await everyOrderId()).filter((id) => !bobOrders.includes(id));
    const neverIssued = ids.at(-1) ?? -1;
    const cancel = (id: number) =>
      callHttp(api.url, 'DELETE', `/v1/store/orders/${id}`, {
        apiKey: bob.apiKey,
      });
    await expectEachAsNeverIssued(cancel, ids, neverIssued, 'not_found');
    expect(await storeState()).toEqual(before);
    for (const id of [...aliceOrders, ...adminOrders]) {
      expect(
        (await api.admin.orders.getOrder({ params: { orderId: String(id) } }))
          .status,
      ).toBe(200);
    }
  });

  it('cannot be patched: a customer gets 403 for any order, existing or not, and nothing changes', async () => {
    const before = await storeState();
    const ids = await everyOrderId();
    const neverIssued = ids.at(-1) ?? -1;
    const patch = (id: number) =>
      callHttp(api.url, 'PATCH', `/v1/store/orders/${id}`, {
        apiKey: bob.apiKey,
        body: { complete: true, shipDate: '2030-01-01T00:00:00Z' },
      });
    await expectEachAsNeverIssued(patch, ids, neverIssued, 'forbidden');
    expect(await storeState()).toEqual(before);
  });

  it('are all visible to the admin, who owns none of them', async () => {
    const listed = ok(
      await api.admin.orders.listOrders({ query: { limit: 100 } }),
      200,
    ).body.map(({ id }) => id);
    expect(listed).toEqual(
      expect.arrayContaining([...aliceOrders, ...bobOrders, ...adminOrders]),
    );
  });
});

describe('another account’s Idempotency-Key', () => {
  const place = (apiKey: string, key: string, quantity: number) =>
    callHttp(api.url, 'POST', '/v1/store/orders', {
      apiKey,
      body: { petId, quantity },
      headers: { 'idempotency-key': key },
    });

  async function ownerOf(orderId: number) {
    const order = await db
      .db(databaseNames.store)
      .collection('orders')
      .findOne({ _id: orderId as never });
    return order?.ownerId as unknown;
  }

  it('with the same body gives another account a new order of its own, not the first one', async () => {
    const key = `shared-same-${Date.now()}`;
    const alices = await place(alice.apiKey, key, 1);
    expect(alices.status).toBe(201);
    const bobs = await place(bob.apiKey, key, 1);
    expect(bobs.status).toBe(201);
    const bobsId = (bobs.body as { id: number }).id;
    expect(bobsId).not.toBe((alices.body as { id: number }).id);
    expect(bobs.headers.get('location')).toBe(`/v2/store/orders/${bobsId}`);
    expect(await ownerOf(bobsId)).toBe(bob.accountId);
    // Bob's own retry answers Bob's order.
    expect(await place(bob.apiKey, key, 1)).toMatchObject({
      status: 201,
      body: { id: bobsId },
    });
  });

  it('with another body is no reuse for another account: 201, not 422', async () => {
    const key = `shared-other-${Date.now()}`;
    expect((await place(alice.apiKey, key, 1)).status).toBe(201);
    const bobs = await place(bob.apiKey, key, 2);
    expect(bobs).toMatchObject({ status: 201, body: { quantity: 2 } });
    expect(await ownerOf((bobs.body as { id: number }).id)).toBe(bob.accountId);
  });
});

describe('another account’s messages', () => {
  it('answer 404, exactly as message ids never issued do', async () => {
    const neverIssued = `msg_${randomBytes(15).toString('hex').slice(0, 20)}`;
    const read = (id: string) =>
      callHttp(api.url, 'GET', `/v1/messages/${id}`, { apiKey: bob.apiKey });
    expectError(await read(neverIssued), 'not_found');
    const stored = await allDocuments(db, databaseNames.gateway, 'messages');
    const foreignIds = stored
      .filter(({ accountId }) => accountId !== bob.accountId)
      .map(({ _id }) => String(_id));
    expect(foreignIds).toEqual(expect.arrayContaining(aliceMessages));
    await expectEachAsNeverIssued(read, foreignIds, neverIssued, 'not_found');
    for (const id of aliceMessages) {
      expect(
        (await alice.api.messages.getMessage({ params: { messageId: id } }))
          .status,
      ).toBe(200);
    }
  });
});

describe('another account’s keys', () => {
  it('cannot be revoked: 404, exactly as key ids never issued, and every key keeps working', async () => {
    const neverIssued = `key_${randomBytes(15).toString('hex').slice(0, 20)}`;
    const revoke = (id: string) =>
      callHttp(api.url, 'DELETE', `/v1/accounts/me/keys/${id}`, {
        apiKey: bob.apiKey,
      });
    expectError(await revoke(neverIssued), 'not_found');
    const before = await allDocuments(db, databaseNames.gateway, 'api_keys');
    const foreign = before.filter(
      ({ accountId }) => accountId !== bob.accountId,
    );
    const foreignIds = foreign.map(({ _id }) => String(_id));
    expect(foreignIds).toEqual(
      expect.arrayContaining([...aliceKeys, 'key_admin']),
    );
    await expectEachAsNeverIssued(revoke, foreignIds, neverIssued, 'not_found');
    const after = await allDocuments(db, databaseNames.gateway, 'api_keys');
    const revocations = (keys: typeof before) =>
      keys.map((key) => [String(key._id), key.revokedAt as unknown]);
    expect(revocations(after)).toEqual(revocations(before));
    expect((await alice.api.accounts.getMe()).status).toBe(200);
    expect((await api.admin.accounts.getMe()).status).toBe(200);
  });

  it('say nothing of whether a key ever existed: a revoked key answers as one never issued', async () => {
    const created = ok(await alice.api.accounts.createKey(), 201).body;
    ok(
      await alice.api.accounts.revokeKey({ params: { keyId: created.id } }),
      204,
    );
    const neverIssued = `psk_${'N'.repeat(40)}`;
    const me = (apiKey: string) =>
      callHttp(api.url, 'GET', '/v1/accounts/me', { apiKey });
    const revoked = await me(created.apiKey);
    expectError(revoked, 'unauthorized');
    expect(whatItSays(revoked, created.id)).toEqual(
      whatItSays(await me(neverIssued), created.id),
    );
  });

  it('are never listed', async () => {
    const listed = ok(await bob.api.accounts.listKeys(), 200).body.map(
      ({ id }) => id,
    );
    const own = (await allDocuments(db, databaseNames.gateway, 'api_keys'))
      .filter(
        ({ accountId, revokedAt }) =>
          accountId === bob.accountId && revokedAt === null,
      )
      .map(({ _id }) => String(_id));
    expect(listed.sort()).toEqual(own.sort());
  });
});
