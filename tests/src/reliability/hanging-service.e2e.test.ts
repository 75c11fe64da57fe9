import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PetstoreClient } from '@petstore/contract';
import { serveHttp, type ServedHttp } from '@petstore/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callHttp, type HttpAnswer } from '@petstore/testkit';
import { stockedPet } from '../support/catalogue.js';
import type { DatabaseReader } from '../support/databases.js';
import { expectError } from '../support/error-bodies.js';
import {
  countOf,
  expectNothingLost,
  expectOnlyAnswers,
} from '../support/ledgers.js';
import { unthrottled } from '../support/test-stack.js';
import { testStackForFile } from '../support/stack-for-file.js';
import { prepareWorkload, Workload } from '../support/workload.js';

/**
 * How long the gateway waits for a service in this file: short, so that hangs end quickly, yet
 * above what the real store takes under this file's load.
 */
const UPSTREAM_TIMEOUT_MS = 1_000;
/** A hang guard well past the gateway's timeout: a request still open then has hung for good. */
const GUARD_MS = 5_000;

/** A stand-in on the store's port that takes every request and never answers it. */
interface HangingService extends AsyncDisposable {
  /** Requests it received. */
  readonly received: number;
  /** Requests it holds whose connection is still open: the gateway is still waiting on them. */
  readonly open: number;
}

let db: DatabaseReader;
let customer: PetstoreClient;
let customerKey: string;
let petId: number;
let standIn: ServedHttp | undefined;

async function hangOnTheStorePort(): Promise<HangingService> {
  const held = new Set<ServerResponse>();
  let received = 0;
  const served = await serveHttp(
    (_req, res) => {
      received++;
      held.add(res);
      res.once('close', () => held.delete(res));
    },
    Number(new URL(api.stack.store.url).port),
  );
  standIn = served;
  return {
    get received() {
      return received;
    },
    get open() {
      return held.size;
    },
    [Symbol.asyncDispose]: () => closeStandIn(),
  };
}

async function closeStandIn(): Promise<void> {
  await standIn?.close();
  standIn = undefined;
}

/** Replaces the store with a stand-in that never answers. */
async function hangTheStore(): Promise<HangingService> {
  await api.stack.store.stop();
  return hangOnTheStorePort();
}

/** Closes the stand-in and starts the real store again on its port. */
async function restoreTheStore(): Promise<void> {
  await closeStandIn();
  if (!api.stack.store.running) await api.stack.store.start();
}

function asCustomer(
  method: string,
  path: string,
  body?: unknown,
): Promise<HttpAnswer> {
  return callHttp(api.url, method, path, {
    apiKey: customerKey,
    body,
    signal: AbortSignal.timeout(GUARD_MS),
  });
}

const api = testStackForFile({
  ...unthrottled,
  UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
});

beforeAll(async () => {
  db = await api.databases();
  const signedUp = await api.signUp();
  customer = signedUp.api;
  customerKey = signedUp.apiKey;
  ({ petId } = await stockedPet(api.admin, 100));
});
afterEach(async () => {
  await restoreTheStore();
});
afterAll(async () => {
  await closeStandIn();
});

describe('a store that takes requests and never answers', () => {
  it('gets 504 upstream_timeout from the gateway, for reads and writes', async () => {
    await using store = await hangTheStore();
    const read = await asCustomer('GET', `/v1/store/inventory/${petId}`);
    expectError(read, 'upstream_timeout');
    expect((read.body as { message: string }).message).toContain('store');
    const write = await asCustomer('POST', '/v1/store/orders', {
      petId,
      quantity: 1,
    });
    expectError(write, 'upstream_timeout');
    expect(store.received).toBe(2);
  });

  it('does not hold up pets, /health, /ready or accounts while store requests hang', async () => {
    await using store = await hangTheStore();
    // Store requests keep arriving, each hanging until the gateway gives up on it.
    const hanging: Promise<HttpAnswer>[] = [];
    let feeding = true;
    const feeder = (async () => {
      while (feeding) {
        hanging.push(asCustomer('GET', '/v1/store/orders'));
        await sleep(50);
      }
    })();
    try {
      await expect.poll(() => store.open).toBeGreaterThanOrEqual(3);
      const whileHanging = async <T extends { status: number }>(
        answer: Promise<T>,
      ) => {
        const answered = await answer;
        // A store request was still hanging when this answer came.
        expect(store.open).toBeGreaterThan(0);
        return answered;
      };
      const signal = () => AbortSignal.timeout(GUARD_MS);
      const health = await whileHanging(
        fetch(`${api.url}/health`, { signal: signal() }),
      );
      expect(health.status).toBe(200);
      const pets = await whileHanging(
        customer.pets.listPets({
          query: {},
          fetchOptions: { signal: signal() },
        }),
      );
      expect(pets.status).toBe(200);
      expect(pets.body).toContainEqual(expect.objectContaining({ id: petId }));
      const me = await whileHanging(
        customer.accounts.getMe({ fetchOptions: { signal: signal() } }),
      );
      expect(me).toMatchObject({ status: 200, body: { role: 'customer' } });
      const signUp = await whileHanging(
        api.client().accounts.createAccount({
          body: { email: `hang.${Date.now()}@example.com` },
          fetchOptions: { signal: signal() },
        }),
      );
      expect(signUp.status).toBe(201);
      const message = await whileHanging(
        customer.messages.sendMessage({
          body: { message: 'The store hangs' },
          fetchOptions: { signal: signal() },
        }),
      );
      expect(message.status).toBe(202);
      // /ready waits at most 1 s for each part, so it answers too, naming the store.
      const ready = await callHttp(api.url, 'GET', '/ready?deep=true', {
        signal: signal(),
      });
      expectError(ready, 'service_unavailable');
      expect((ready.body as { details: { path: string }[] }).details).toEqual([
        { path: 'store', message: expect.any(String) as string },
      ]);
    } finally {
      feeding = false;
      await feeder;
    }
    for (const answer of await Promise.all(hanging))
      expectError(answer, 'upstream_timeout');
  });

  it('is replaced by the real store, which the gateway serves again without a restart', async () => {
    await using store = await hangTheStore();
    expectError(
      await asCustomer('GET', `/v1/store/inventory/${petId}`),
      'upstream_timeout',
    );
    expect(store.received).toBe(1);
    await restoreTheStore();

    await expect
      .poll(() => asCustomer('GET', `/v1/store/inventory/${petId}`))
      .toMatchObject({ status: 200, body: { petId } });
    const order = await asCustomer('POST', '/v1/store/orders', {
      petId,
      quantity: 1,
    });
    expect(order).toMatchObject({ status: 201, body: { petId, quantity: 1 } });
  });
});

describe('under load', () => {
  it('loses nothing when the store starts hanging and is then replaced', async () => {
    const workload = new Workload(api.url, await prepareWorkload(api), {
      guardMs: GUARD_MS,
    });
    await workload.throughOutage({
      stop: hangTheStore,
      start: restoreTheStore,
    });

    expectOnlyAnswers(workload, ['service_unavailable', 'upstream_timeout']);
    expect(countOf(workload, 'order', 504)).toBeGreaterThan(0);
    expect(countOf(workload, 'order', 201)).toBeGreaterThan(0);
    await expectNothingLost(workload, db);
  });
});
