import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { callHttp } from '@petstore/testkit';
import { ok, stockedPet } from '../support/catalogue.js';
import { unthrottled } from '../support/test-stack.js';
import { testStackForFile } from '../support/stack-for-file.js';

/** How long a stopping service answers /ready 503 while it still serves. */
const DRAIN_MS = 1_500;
/** How often the client's balancer asks each gateway's /ready, as a load balancer would. */
const READY_POLL_MS = 100;
/** The most requests the load sends, whatever happens: a bounded load. */
const MAX_REQUESTS = 20_000;
/** How long a restarted process may take to be back in rotation. */
const ROTATION_WAIT = { timeout: 10_000, interval: 50 };

const api = testStackForFile(
  { ...unthrottled, SHUTDOWN_DRAIN_MS: String(DRAIN_MS) },
  { replicas: { gateway: 2, pets: 2, store: 2 } },
);

/**
 * The gateways a load balancer would send to: those whose `/ready` last answered 200, asked every
 * `READY_POLL_MS`.
 */
function readyGateways(urls: string[]) {
  const ready = new Set(urls);
  const asking = new Set<Promise<void>>();
  const ask = (url: string) => {
    const answer = fetch(`${url}/ready`, { signal: AbortSignal.timeout(500) })
      .then(
        (res) => res.status === 200,
        () => false,
      )
      .then((answered) => {
        if (answered) ready.add(url);
        else ready.delete(url);
      })
      .finally(() => asking.delete(answer));
    asking.add(answer);
  };
  const timer = setInterval(() => {
    urls.forEach(ask);
  }, READY_POLL_MS);
  let turn = 0;
  return {
    has: (url: string) => ready.has(url),
    any: () => ready.size > 0,
    pick: () => {
      const candidates = [...ready];
      return candidates[turn++ % Math.max(candidates.length, 1)];
    },
    async stop() {
      clearInterval(timer);
      await Promise.all(asking);
    },
  };
}

describe('a rolling restart of every process, one at a time, under load', () => {
  it('answers every request 2xx', async () => {
    const { petId } = await stockedPet(api.admin, 1_000_000);
    const { apiKey } = await api.signUp();
    const gateways = readyGateways(
      api.stack.replicas.gateway.map((gateway) => gateway.url),
    );
    const outcomes = new Map<string, number>();
    let sent = 0;
    let loading = true;
    const worker = async (index: number) => {
      for (let round = 0; loading && sent < MAX_REQUESTS; round++) {
        const gateway = gateways.pick();
        if (gateway === undefined) {
          await vi.waitUntil(() => gateways.any(), ROTATION_WAIT);
          continue;
        }
        sent++;
        const order = (index + round) % 2 === 0;
        const outcome = await callHttp(
          gateway,
          order ? 'POST' : 'GET',
          order ? '/v1/store/orders' : `/v1/pets/${petId}`,
          // Orders carry an Idempotency-Key, so the gateway may send one again to another
          // replica when the one it chose dropped the connection while stopping.
          order
            ? {
                apiKey,
                body: { petId, quantity: 1 },
                headers: { 'Idempotency-Key': randomUUID() },
              }
            : { apiKey },
        ).then(
          ({ status, body }) =>
            status < 300
              ? String(status)
              : `${status} ${(body as { message?: string }).message}`,
          (error: unknown) =>
            `error: ${error instanceof Error ? error.message : String(error)}`,
        );
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(worker));
    try {
      const { pets, store, gateway } = api.stack.replicas;
      for (const process of [...pets, ...store, ...gateway]) {
        await process.stop();
        await process.start();
        // Back in rotation before the next one goes.
        await expect
          .poll(
            async () => (await callHttp(process.url, 'GET', '/ready')).status,
            ROTATION_WAIT,
          )
          .toBe(200);
        if (gateway.includes(process)) {
          await vi.waitUntil(() => gateways.has(process.url), ROTATION_WAIT);
        }
      }
    } finally {
      loading = false;
      await load;
      await gateways.stop();
    }
    const answered = Object.fromEntries(outcomes);
    expect(sent).toBeGreaterThan(100);
    expect(
      Object.keys(answered).every((outcome) => /^2\d\d$/.test(outcome)),
      JSON.stringify(answered),
    ).toBe(true);
    // Every process served again once restarted.
    for (const url of api.stack.replicas.gateway.map(
      (process) => process.url,
    )) {
      expect((await callHttp(url, 'GET', '/ready?deep=true')).status).toBe(200);
    }
    ok(await api.admin.pets.getPet({ params: { petId: String(petId) } }), 200);
  });
});
