import { describe, expect, it } from 'vitest';
import { callHttp } from '@petstore/testkit';
import { ok, stockedPet } from '../support/catalogue.js';
import { testStackForFile } from '../support/stack-for-file.js';

const api = testStackForFile({
  // A key's burst of 5, refilled once every 1000 s: the sixth request is refused.
  RATE_LIMIT_PER_SECOND: '0.001',
  RATE_LIMIT_BURST: '5',
});

async function scrape(process: {
  name: string;
  metricsUrl?: string;
}): Promise<string> {
  if (!process.metricsUrl) throw new Error(`${process.name} serves no metrics`);
  const res = await fetch(process.metricsUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(
    /^text\/plain; version=0\.0\.4/,
  );
  return res.text();
}

/** The value of one sample (a metric with exactly these labels), or undefined. */
function sample(
  text: string,
  metric: string,
  labels: Record<string, string> = {},
) {
  const wanted = Object.entries(labels).map(
    ([name, value]) => `${name}="${value}"`,
  );
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${metric}{`) && !line.startsWith(`${metric} `))
      continue;
    if (wanted.every((label) => line.includes(label)))
      return Number(line.split(' ').at(-1));
  }
  return undefined;
}

/** How many finds the pets service made in its `pets` collection so far. */
async function findsOfPets(): Promise<number> {
  const finds = sample(
    await scrape(api.stack.pets),
    'db_client_operation_duration_seconds_count',
    {
      db_system_name: 'mongodb',
      db_operation_name: 'find',
      db_collection_name: 'pets',
      outcome: 'success',
    },
  );
  return finds ?? 0;
}

describe('metrics', () => {
  it('are served on a port of their own, never through the gateway', async () => {
    expect((await callHttp(api.url, 'GET', '/metrics')).status).toBe(404);
    expect(api.stack.gateway.metricsUrl).not.toContain(new URL(api.url).port);
  });

  it('count requests, database commands, refusals and upstream errors with their labels', async () => {
    const { petId } = await stockedPet(api.admin, 10);
    const { apiKey } = await api.signUp();
    const findsBefore = await findsOfPets();
    ok(
      await api
        .client(apiKey)
        .pets.getPet({ params: { petId: String(petId) } }),
      200,
    );
    // Background work (status pushes, their repair) reads pets too: at least the read's find.
    expect(await findsOfPets()).toBeGreaterThan(findsBefore);
    ok(
      await api
        .client(apiKey)
        .messages.sendMessage({ body: { message: 'hello' } }),
      202,
    );
    // Two requests so far; three more spend the burst of five.
    for (let sent = 0; sent < 3; sent++)
      await callHttp(api.url, 'GET', '/v1/pets', { apiKey });
    expect(
      (await callHttp(api.url, 'GET', '/v1/pets', { apiKey })).status,
    ).toBe(429);
    await api.stack.store.stop();
    try {
      const { apiKey: another } = await api.signUp();
      expect(
        (
          await callHttp(api.url, 'GET', '/v1/store/inventory', {
            apiKey: another,
          })
        ).status,
      ).toBe(503);
    } finally {
      await api.stack.store.start();
    }

    const gateway = await scrape(api.stack.gateway);
    const pets = await scrape(api.stack.pets);
    const store = await scrape(api.stack.store);
    const request = {
      http_route: '/v2/pets/:petId',
      http_request_method: 'GET',
      http_response_status_code: '200',
    };
    for (const text of [gateway, pets]) {
      expect(
        sample(text, 'http_server_request_duration_seconds_count', request),
      ).toBe(1);
      expect(
        sample(text, 'http_server_request_duration_seconds_bucket', {
          ...request,
          le: '+Inf',
        }),
      ).toBe(1);
    }
    for (const text of [gateway, pets, store]) {
      expect(sample(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
      expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      expect(
        Number.isFinite(sample(text, 'nodejs_eventloop_lag_p99_seconds')),
      ).toBe(true);
    }
    expect(
      sample(gateway, 'petstore_rate_limit_rejections_total', {
        limit: 'account',
      }),
    ).toBe(1);
    expect(
      sample(gateway, 'petstore_upstream_errors_total', {
        service: 'store',
        kind: 'refused',
      }),
    ).toBe(1);
  });

  it('gauge the queues, back to empty once the message and the events are delivered', async () => {
    await expect
      .poll(async () =>
        sample(await scrape(api.stack.gateway), 'petstore_message_queue_depth'),
      )
      .toBe(0);
    await expect
      .poll(async () =>
        sample(await scrape(api.stack.store), 'petstore_outbox_backlog'),
      )
      .toBe(0);
    expect(
      sample(
        await scrape(api.stack.store),
        'petstore_outbox_oldest_age_seconds',
      ),
    ).toBe(0);
  });
});
