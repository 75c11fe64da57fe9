/**
 * A program written as a user of `@petstore/client` writes one for a browser or an edge runtime:
 * sdk-web.e2e.test.ts bundles it with esbuild `--platform=browser` and runs the bundle in Chromium
 * and in a context that has only web APIs. It defines `globalThis.runPetstore(input)`, which
 * resolves to a `WebReport`.
 */
import {
  createClient,
  PetstoreError,
  PetstoreWebhookError,
} from '@petstore/client';

export interface WebInput {
  baseUrl: string;
  /** A customer's key. */
  apiKey: string;
  /** A category of its own with `pets` pets. */
  categoryId: number;
  /** A pet with `stock` in the store. */
  petId: number;
  stock: number;
  /** A delivery signed by Standard Webhooks' own library with `secret`. */
  delivery: { body: string; headers: Record<string, string>; secret: string };
}

export interface WebReport {
  /** What the runtime has of Node's globals: `typeof process` and `typeof Buffer`. */
  runtime: { process: string; buffer: string };
  listed: number[];
  firstPage: { status: number; rateLimitRemaining: string | null };
  /** Two orders placed with one Idempotency-Key, and one with a generated key. */
  orders: { sameKey: (number | undefined)[]; generatedKey: number | undefined };
  error: {
    name: string;
    status?: number;
    code?: string;
    requestId?: string;
    headerRequestId?: string | null;
    rateLimitRemaining?: string | null;
  };
  webhook: { type: string; tampered: string };
}

async function errorOf(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return new Error('nothing was thrown');
}

async function runPetstore(input: WebInput): Promise<WebReport> {
  const client = createClient({ apiKey: input.apiKey, baseUrl: input.baseUrl });

  const listed: number[] = [];
  for await (const pet of client.pets.list({
    categoryId: input.categoryId,
    limit: 2,
  })) {
    listed.push(pet.id);
  }
  const { response } = await client.pets
    .list({ limit: 1 })
    .firstPage()
    .withResponse();

  const order = { petId: input.petId, quantity: 1 };
  const idempotencyKey = `web-${crypto.randomUUID()}`;
  const first = await client.orders.create(order, { idempotencyKey });
  const again = await client.orders.create(order, { idempotencyKey });
  const generated = await client.orders.create(order);

  const refused = await errorOf(() =>
    client.orders.create({ petId: input.petId, quantity: input.stock + 1 }),
  );
  let error: WebReport['error'] = {
    name: refused instanceof Error ? refused.name : 'none',
  };
  if (refused instanceof PetstoreError) {
    error = {
      ...error,
      status: refused.status,
      code: refused.code,
      requestId: refused.requestId,
      headerRequestId: refused.headers.get('x-request-id'),
      rateLimitRemaining: refused.headers.get('ratelimit-remaining'),
    };
  }

  const { body, headers, secret } = input.delivery;
  const event = await client.webhooks.constructEvent(
    new TextEncoder().encode(body),
    headers,
    secret,
  );
  const tampered = await errorOf(() =>
    client.webhooks.constructEvent(
      body.replace('order.created', 'order.cancelled'),
      headers,
      secret,
    ),
  );

  // Typed for the browser: Node's globals are no names here.
  const nodeGlobals = globalThis as unknown as Record<string, unknown>;
  return {
    runtime: {
      process: typeof nodeGlobals.process,
      buffer: typeof nodeGlobals.Buffer,
    },
    listed,
    firstPage: {
      status: response.status,
      rateLimitRemaining: response.headers.get('ratelimit-remaining'),
    },
    orders: { sameKey: [first.id, again.id], generatedKey: generated.id },
    error,
    webhook: {
      type: event.type,
      tampered:
        tampered instanceof PetstoreWebhookError
          ? tampered.name
          : String(tampered),
    },
  };
}

(globalThis as { runPetstore?: typeof runPetstore }).runPetstore = runPetstore;
