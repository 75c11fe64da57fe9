import { randomUUID } from 'node:crypto';
import { describe, expect, vi } from 'vitest';
import {
  ADMIN_API_KEY,
  bearer,
  signUp,
  startTestGateway,
  testConfig,
  it,
  type TestGateway,
} from '../test-support/gateway-harness.js';

interface MessageBody {
  id: string;
  message: string;
  status: 'queued' | 'delivered';
  createdAt: string;
}

async function send(
  baseUrl: string,
  apiKey: string,
  message: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${baseUrl}/v1/messages`, {
    method: 'POST',
    headers: {
      ...bearer(apiKey),
      'Content-Type': 'application/json',
      ...headers,
    },
    body: JSON.stringify({ message }),
  });
}

async function read(
  baseUrl: string,
  apiKey: string,
  id: string,
): Promise<Response> {
  return fetch(`${baseUrl}/v1/messages/${id}`, { headers: bearer(apiKey) });
}

describe('messages', () => {
  it('accepts a message with 202 queued, and a worker delivers it shortly after', async ({
    mongo,
  }) => {
    // With polling this slow, only the kick after the post gets the message delivered in time.
    await using gateway = await startTestGateway(mongo, {
      env: { MESSAGE_POLL_MS: '600000' },
    });
    const { apiKey } = await signUp(gateway.url);
    const res = await send(gateway.url, apiKey, 'Hello from the Petstore!');
    expect(res.status).toBe(202);
    const queued = (await res.json()) as MessageBody;
    expect(queued).toEqual({
      id: expect.stringMatching(/^msg_[0-9a-f]{32}$/) as string,
      message: 'Hello from the Petstore!',
      status: 'queued',
      createdAt: expect.any(String) as string,
    });

    const delivered = await vi.waitUntil(
      async () => {
        const body = (await (
          await read(gateway.url, apiKey, queued.id)
        ).json()) as MessageBody;
        return body.status === 'delivered' && body;
      },
      { timeout: 10_000 },
    );
    expect(delivered).toEqual({ ...queued, status: 'delivered' });
    const stored = await gateway.db
      .collection('messages')
      .findOne({ _id: queued.id as never });
    expect(stored?.deliveredAt).toBeInstanceOf(Date);
  });

  it('keeps the message exactly as sent', async ({ gateway }) => {
    const { apiKey } = await signUp(gateway.url);
    const text = '  spaces, ünïcødé 🐾 and "quotes"  ';
    const sent = (await (
      await send(gateway.url, apiKey, text)
    ).json()) as MessageBody;
    const got = (await (
      await read(gateway.url, apiKey, sent.id)
    ).json()) as MessageBody;
    expect(got.message).toBe(text);
  });

  it('returns 400 validation_failed for an empty message', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const res = await send(gateway.url, apiKey, '');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'validation_failed' });
  });

  it('returns 404 not_found for another account’s message; an admin sees it', async ({
    gateway,
  }) => {
    const alice = await signUp(gateway.url);
    const bob = await signUp(gateway.url);
    const sent = (await (
      await send(gateway.url, alice.apiKey, 'for alice')
    ).json()) as MessageBody;

    const asBob = await read(gateway.url, bob.apiKey, sent.id);
    expect(asBob.status).toBe(404);
    expect(await asBob.json()).toMatchObject({
      code: 'not_found',
      status: 404,
    });
    const asAdmin = await read(gateway.url, ADMIN_API_KEY, sent.id);
    expect(asAdmin.status).toBe(200);
    expect(await asAdmin.json()).toMatchObject({
      id: sent.id,
      message: 'for alice',
    });
    expect(
      (await read(gateway.url, alice.apiKey, 'msg_doesnotexist')).status,
    ).toBe(404);
  });

  it('delivers messages queued before a restart once the gateway is back', async ({
    mongo,
  }) => {
    const config = testConfig(mongo);
    await using before = await startTestGateway(mongo, { config });
    const { apiKey } = await signUp(before.url);
    const sent = (await (
      await send(before.url, apiKey, 'survives restarts')
    ).json()) as MessageBody;
    await before.close();
    // As if the gateway had stopped before its worker got to it, and another had died mid-delivery.
    const messages = before.db.collection('messages');
    await messages.updateOne(
      { _id: sent.id as never },
      { $set: { status: 'queued', deliveredAt: null } },
    );
    await messages.insertOne({
      _id: 'msg_claimedByADeadWorker' as never,
      accountId: 'acct_admin',
      message: 'its worker died',
      status: 'delivering',
      createdAt: new Date(),
      leaseUntil: new Date(Date.now() - 1000),
      attempts: 1,
      deliveredAt: null,
    });

    await using after = await startTestGateway(mongo, { config });
    for (const messageId of [sent.id, 'msg_claimedByADeadWorker']) {
      const delivered = await vi.waitUntil(
        async () => {
          const res = await read(after.url, ADMIN_API_KEY, messageId);
          const body = (await res.json()) as MessageBody;
          return body.status === 'delivered' && body;
        },
        { timeout: 10_000 },
      );
      expect(delivered.id).toBe(messageId);
    }
  });
});

describe('Idempotency-Key on POST /v1/messages', () => {
  const withKey = (key: string) => ({ 'Idempotency-Key': key });

  async function delivered(gateway: TestGateway, apiKey: string, id: string) {
    await vi.waitUntil(
      async () => {
        const body = (await (
          await read(gateway.url, apiKey, id)
        ).json()) as MessageBody;
        return body.status === 'delivered';
      },
      { timeout: 10_000 },
    );
  }

  const deliveriesOf = (gateway: TestGateway, id: string) =>
    gateway.logs
      .text()
      .split('\n')
      .filter(
        (line) => line.includes('"message delivered"') && line.includes(id),
      ).length;

  const messagesOf = (gateway: TestGateway, accountId: string) =>
    gateway.db.collection('messages').countDocuments({ accountId });

  it('answers a retry with the first 202 and queues nothing, even once delivered', async ({
    gateway,
  }) => {
    const { accountId, apiKey } = await signUp(gateway.url);
    const key = randomUUID();
    const first = await send(gateway.url, apiKey, 'once', withKey(key));
    expect(first.status).toBe(202);
    const sent = (await first.json()) as MessageBody;
    await delivered(gateway, apiKey, sent.id);

    const retry = await send(gateway.url, apiKey, 'once', withKey(key));
    expect(retry.status).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(sent);
    expect(await messagesOf(gateway, accountId)).toBe(1);
    // The worker takes named messages in turn: once a later one is delivered, the retry's is done.
    const later = (await (
      await send(gateway.url, apiKey, 'later')
    ).json()) as MessageBody;
    await delivered(gateway, apiKey, later.id);
    expect(deliveriesOf(gateway, sent.id)).toBe(1);
  });

  it('returns 422 idempotency_key_reused for the same key with another message', async ({
    gateway,
  }) => {
    const { accountId, apiKey } = await signUp(gateway.url);
    const key = randomUUID();
    expect(
      (await send(gateway.url, apiKey, 'first', withKey(key))).status,
    ).toBe(202);
    const reused = await send(gateway.url, apiKey, 'second', withKey(key));
    expect(reused.status).toBe(422);
    expect(await reused.json()).toMatchObject({
      code: 'idempotency_key_reused',
      status: 422,
    });
    expect(await messagesOf(gateway, accountId)).toBe(1);
  });

  it('keeps the keys of different accounts apart', async ({ gateway }) => {
    const alice = await signUp(gateway.url);
    const bob = await signUp(gateway.url);
    const key = randomUUID();
    const forAlice = (await (
      await send(gateway.url, alice.apiKey, 'hello', withKey(key))
    ).json()) as MessageBody;
    const forBob = await send(gateway.url, bob.apiKey, 'hello', withKey(key));
    expect(forBob.status).toBe(202);
    const bobs = (await forBob.json()) as MessageBody;
    expect(bobs.id).not.toBe(forAlice.id);
    expect((await read(gateway.url, bob.apiKey, bobs.id)).status).toBe(200);
  });

  it('queues one message for 20 concurrent requests with one key, delivered once', async ({
    gateway,
  }) => {
    const { accountId, apiKey } = await signUp(gateway.url);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        send(gateway.url, apiKey, 'at once', withKey(key)),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(202));
    const bodies = (await Promise.all(
      answers.map((answer) => answer.json()),
    )) as MessageBody[];
    const [first] = bodies;
    for (const body of bodies) expect(body).toEqual(first);
    expect(await messagesOf(gateway, accountId)).toBe(1);
    await delivered(gateway, apiKey, first!.id);
    expect(deliveriesOf(gateway, first!.id)).toBe(1);
  });

  it('refuses a key that is empty or longer than 255 characters with 400', async ({
    gateway,
  }) => {
    const { accountId, apiKey } = await signUp(gateway.url);
    for (const key of ['', 'k'.repeat(256)]) {
      const res = await send(gateway.url, apiKey, 'hello', withKey(key));
      expect(res.status, key).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'validation_failed' });
    }
    expect(
      (await send(gateway.url, apiKey, 'hello', withKey('k'.repeat(255))))
        .status,
    ).toBe(202);
    expect(await messagesOf(gateway, accountId)).toBe(1);
  });
});
