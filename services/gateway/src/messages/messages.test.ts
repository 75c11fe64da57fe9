import { describe, expect, vi } from 'vitest';
import {
  ADMIN_API_KEY,
  bearer,
  signUp,
  startTestGateway,
  testConfig,
  it,
} from '../test-support/gateway-harness.js';

interface MessageBody {
  id: string;
  message: string;
  status: 'queued' | 'delivered';
  createdAt: string;
}

async function send(baseUrl: string, apiKey: string, message: string): Promise<Response> {
  return fetch(`${baseUrl}/v1/messages`, {
    method: 'POST',
    headers: { ...bearer(apiKey), 'Content-Type': 'application/json' },
    body: JSON.stringify({ message }),
  });
}

async function read(baseUrl: string, apiKey: string, id: string): Promise<Response> {
  return fetch(`${baseUrl}/v1/messages/${id}`, { headers: bearer(apiKey) });
}

describe('messages', () => {
  it('accepts a message with 202 queued, and a worker delivers it shortly after', async ({
    mongo,
  }) => {
    // With polling this slow, only the kick after the post gets the message delivered in time.
    await using gateway = await startTestGateway(mongo, { MESSAGE_POLL_MS: '600000' });
    const { apiKey } = await signUp(gateway.url);
    const res = await send(gateway.url, apiKey, 'Hello from the Petstore!');
    expect(res.status).toBe(202);
    const queued = (await res.json()) as MessageBody;
    expect(queued).toEqual({
      id: expect.stringMatching(/^msg_[A-Za-z0-9]{20}$/) as string,
      message: 'Hello from the Petstore!',
      status: 'queued',
      createdAt: expect.any(String) as string,
    });

    const delivered = await vi.waitUntil(
      async () => {
        const body = (await (await read(gateway.url, apiKey, queued.id)).json()) as MessageBody;
        return body.status === 'delivered' && body;
      },
      { timeout: 10_000 },
    );
    expect(delivered).toEqual({ ...queued, status: 'delivered' });
    const stored = await gateway.db.collection('messages').findOne({ _id: queued.id as never });
    expect(stored?.deliveredAt).toBeInstanceOf(Date);
  });

  it('keeps the message exactly as sent', async ({ gateway }) => {
    const { apiKey } = await signUp(gateway.url);
    const text = '  spaces, ünïcødé 🐾 and "quotes"  ';
    const sent = (await (await send(gateway.url, apiKey, text)).json()) as MessageBody;
    const got = (await (await read(gateway.url, apiKey, sent.id)).json()) as MessageBody;
    expect(got.message).toBe(text);
  });

  it('returns 400 validation_failed for an empty message', async ({ gateway }) => {
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
    const sent = (await (await send(gateway.url, alice.apiKey, 'for alice')).json()) as MessageBody;

    const asBob = await read(gateway.url, bob.apiKey, sent.id);
    expect(asBob.status).toBe(404);
    expect(await asBob.json()).toMatchObject({ code: 'not_found', status: 404 });
    const asAdmin = await read(gateway.url, ADMIN_API_KEY, sent.id);
    expect(asAdmin.status).toBe(200);
    expect(await asAdmin.json()).toMatchObject({ id: sent.id, message: 'for alice' });
    expect((await read(gateway.url, alice.apiKey, 'msg_doesnotexist')).status).toBe(404);
  });

  it('delivers messages queued before a restart once the gateway is back', async ({ mongo }) => {
    const config = testConfig(mongo);
    await using before = await startTestGateway(mongo, {}, config);
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

    await using after = await startTestGateway(mongo, {}, config);
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
