/**
 * A program written as a user of the published `@petstore/client` writes one. sdk.e2e.test.ts
 * compiles this one source three ways in a project outside the workspace (ESM under nodenext,
 * CommonJS under node10, a bundle made by esbuild after a `bundler` typecheck) and runs each
 * against a stack. It reads what it needs from `PETSTORE_SDK_INPUT` (a `ConsumerInput` as JSON),
 * prints one line `{"attempt": …}` for every attempt of the call that meets the stopped store, and
 * ends with one line `{"report": …}` (a `Report`).
 */
import { readFileSync } from 'node:fs';
import {
  createClient,
  PetstoreConnectionError,
  PetstoreError,
  PetstoreTimeoutError,
  PetstoreWebhookError,
  type Pet,
} from '@petstore/client';

export interface ConsumerInput {
  baseUrl: string;
  /** A customer's key: the one the webhook was registered with, and the order placed with. */
  apiKey: string;
  /** A category of its own whose pets fill more than one page of two. */
  categoryId: number;
  /** A pet with `stock` in the store. */
  scarcePetId: number;
  stock: number;
  /** A server that accepts connections and never answers. */
  hangingUrl: string;
  /** A JSON file holding a `Delivery`. */
  deliveryPath: string;
}

/** An `order.created` webhook delivery as the receiver got it, and the webhook's secret. */
export interface Delivery {
  body: string;
  headers: Record<string, string>;
  secret: string;
}

/** What a thrown error is, as far as the package's classes tell. */
export interface ErrorReport {
  name: string;
  petstoreError: boolean;
  connectionError: boolean;
  timeoutError: boolean;
  webhookError: boolean;
}

export interface Report {
  /** The caller's orders, listed while the store was down and then up again. */
  retry: { orderIds: (number | undefined)[]; requestId: string };
  pagination: {
    /** Every pet of the category, in the order `for await` gave them. */
    iterated: number[];
    firstPage: {
      ids: number[];
      nextCursor: string | undefined;
      requestId: string;
    };
    secondPage: number[];
  };
  conflict: ErrorReport & {
    status?: number;
    code?: string;
    requestId?: string;
  };
  timeout: ErrorReport;
  webhook: {
    type: string;
    orderId: number | undefined;
    /** The same delivery with its body changed. */
    tampered: ErrorReport;
  };
  /** `requestId` of a result: its type, and whether it shows among the result's own keys. */
  requestId: { type: string; enumerable: boolean };
}

function print(line: unknown): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

function errorReport(error: unknown): ErrorReport {
  return {
    name: error instanceof Error ? error.name : typeof error,
    petstoreError: error instanceof PetstoreError,
    connectionError: error instanceof PetstoreConnectionError,
    timeoutError: error instanceof PetstoreTimeoutError,
    webhookError: error instanceof PetstoreWebhookError,
  };
}

/** Runs `attempt`; what it threw, or a report that it threw nothing. */
async function thrownBy(attempt: () => unknown): Promise<unknown> {
  try {
    await attempt();
  } catch (error) {
    return error;
  }
  return new Error('nothing was thrown');
}

async function main(): Promise<void> {
  const input = JSON.parse(
    process.env.PETSTORE_SDK_INPUT ?? '',
  ) as ConsumerInput;
  const { baseUrl, apiKey } = input;

  // The store is down when this starts: each attempt's status is printed as it comes, so that
  // the test starts the store once it sees a 503; the retries then reach the store back up.
  const recordingFetch: typeof fetch = async (request, init) => {
    try {
      const response = await fetch(request, init);
      print({ attempt: response.status });
      return response;
    } catch (error) {
      print({ attempt: error instanceof Error ? error.name : 'error' });
      throw error;
    }
  };
  const recorded = createClient({ apiKey, baseUrl, fetch: recordingFetch });
  const orders = await recorded.orders.list({}, { maxRetries: 10 }).firstPage();
  const retry = {
    orderIds: orders.data.map((order) => order.id),
    requestId: orders.requestId,
  };

  const client = createClient({ apiKey, baseUrl });
  const iterated: number[] = [];
  for await (const pet of client.pets.list({
    limit: 2,
    categoryId: input.categoryId,
  })) {
    const typed: Pet = pet;
    iterated.push(typed.id);
  }
  const first = await client.pets
    .list({ limit: 2, categoryId: input.categoryId })
    .firstPage();
  const second = await first.nextPage();
  const pagination = {
    iterated,
    firstPage: {
      ids: first.data.map((pet) => pet.id),
      nextCursor: first.nextCursor,
      requestId: first.requestId,
    },
    secondPage: second?.data.map((pet) => pet.id) ?? [],
  };

  const refused = await thrownBy(() =>
    client.orders.create({
      petId: input.scarcePetId,
      quantity: input.stock + 1,
    }),
  );
  let conflict: Report['conflict'] = errorReport(refused);
  if (refused instanceof PetstoreError) {
    const { status, code, requestId } = refused;
    conflict = { ...conflict, status, code, requestId };
    // `code` is the closed union of the API's codes, so narrowing on one the API does not have
    // fails to compile (and an unused directive would too, were `code` a mere string).
    // @ts-expect-error: 'out_of_stock' is none of the API's codes.
    if (code === 'out_of_stock') throw refused;
  }

  const hanging = createClient({
    apiKey,
    baseUrl: input.hangingUrl,
    timeout: 200,
    maxRetries: 0,
  });
  const timeout = errorReport(await thrownBy(() => hanging.accounts.me()));

  const delivery = JSON.parse(
    readFileSync(input.deliveryPath, 'utf8'),
  ) as Delivery;
  const event = await client.webhooks.constructEvent(
    delivery.body,
    delivery.headers,
    delivery.secret,
  );
  const orderId = event.type === 'order.created' ? event.data.id : undefined;
  const forged = delivery.body.replace('"order.created"', '"order.cancelled"');
  const tampered = errorReport(
    await thrownBy(() =>
      client.webhooks.constructEvent(forged, delivery.headers, delivery.secret),
    ),
  );

  const me = await client.accounts.me();
  const report: Report = {
    retry,
    pagination,
    conflict,
    timeout,
    webhook: { type: event.type, orderId, tampered },
    requestId: {
      type: typeof me.requestId,
      enumerable: Object.keys(me).includes('requestId'),
    },
  };
  print({ report });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
