import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callHttp } from '@petstore/testkit';
import { ok, stockedPet } from '../support/catalogue.js';
import {
  startTestStack,
  unthrottled,
  type TestStack,
} from '../support/test-stack.js';
import { startOtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let api: TestStack;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  api = await startTestStack({
    ...unthrottled,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    // The receiver reads JSON; the services send protobuf unless told.
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_TRACES_SAMPLER: 'always_on',
    // Export every 100 ms rather than every 5 s.
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });
});
afterAll(async () => {
  await api?.[Symbol.asyncDispose]();
  await receiver?.[Symbol.asyncDispose]();
});

/** A W3C `traceparent` a client starts, with its trace id. */
function clientTrace() {
  const traceId = randomBytes(16).toString('hex');
  return {
    traceId,
    traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
  };
}

const inTrace = (traceId: string) => () =>
  receiver.spans.filter((span) => span.traceId === traceId);

/** Waits until the trace holds a span of each `[service, name pattern]` given. */
async function expectSpans(
  traceId: string,
  wanted: [string, RegExp][],
): Promise<ReceivedSpan[]> {
  const spans = inTrace(traceId);
  const found = () =>
    wanted.map(([service, name]) =>
      spans().some((span) => span.service === service && name.test(span.name)),
    );
  await expect.poll(found, { timeout: 15_000 }).toEqual(wanted.map(() => true));
  return spans();
}

describe('traces', () => {
  it('follow GET /v1/pets/{petId} from the gateway to pets and its database, in the client’s trace', async () => {
    const { petId } = await stockedPet(api.admin, 1);
    const { traceId, traceparent } = clientTrace();
    const answer = await callHttp(api.url, 'GET', `/v1/pets/${petId}`, {
      apiKey: api.stack.adminApiKey,
      headers: { traceparent },
    });
    expect(answer.status).toBe(200);
    await expectSpans(traceId, [
      ['gateway', /^GET \/v1\/pets\/:petId$/],
      ['gateway', /^GET pets$/],
      ['pets', /^GET \/v1\/pets\/:petId$/],
      ['pets', /^find pets$/],
    ]);
    // Every line pets logged for the request carries the trace.
    await expect
      .poll(() =>
        api
          .logsOf('pets')
          .filter((line) => line.includes(`"trace_id":"${traceId}"`)),
      )
      .not.toEqual([]);
  });

  it('follow an order from the gateway to the store and pets, and on to the outbox push', async () => {
    // The last one in stock: the order moves the pet's status, which the outbox pushes.
    const { petId } = await stockedPet(api.admin, 1);
    const { apiKey } = await api.signUp();
    const { traceId, traceparent } = clientTrace();
    const answer = await callHttp(api.url, 'POST', '/v1/store/orders', {
      apiKey,
      body: { petId, quantity: 1 },
      headers: { traceparent },
    });
    expect(answer.status).toBe(201);
    await expectSpans(traceId, [
      ['gateway', /^POST \/v1\/store\/orders$/],
      ['store', /^POST \/v1\/store\/orders$/],
      ['gateway', /^POST store$/],
      ['store', /^findAndModify inventory$/],
      ['store', /^outbox push$/],
      ['pets', /^PUT \/internal\/pets\/:petId\/status$/],
    ]);
  });

  it('start a trace of their own for a request that carries none', async () => {
    const before = new Set(receiver.spans.map((span) => span.traceId));
    ok(await api.admin.pets.listPets({ query: {} }), 200);
    await expect
      .poll(() =>
        receiver.spans.some(
          (span) =>
            !before.has(span.traceId) &&
            span.service === 'gateway' &&
            span.name === 'GET /v2/pets',
        ),
      )
      .toBe(true);
  });
});
