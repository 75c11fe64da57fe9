import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  afterAll,
  afterEach,
  beforeAll,
  describe,
  expect,
  it,
  vi,
} from 'vitest';
import { ok, stockedPet } from '../support/catalogue.js';
import { testStackForFile } from '../support/stack-for-file.js';
import { unthrottled } from '../support/test-stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import type { ConsumerInput, Delivery, Report } from './consumers/consumer.js';
import { runProgram as run } from '../support/run-program.js';
import {
  ConsumerProject,
  workspaceRoot,
  type CompiledConsumer,
  type ConsumerKind,
} from './consumer-project.js';
import { ConsumerRun, type Line } from './consumer-run.js';
import { HangingServer } from './hanging-server.js';

// The acceptance test of @petstore/client as users get it: packed with pnpm, installed with npm in
// a project outside the workspace, consumers/consumer.ts compiled there as ESM, as CommonJS and as
// an esbuild bundle, each run with node against a stack it drives through a store outage, a
// conflict, a server that never answers and a signed webhook delivery.

// Loopback receivers need WEBHOOK_ALLOW_PRIVATE_URLS; the worker looks for deliveries every second.
const api = testStackForFile({
  ...unthrottled,
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_POLL_MS: '1000',
});

const kinds: ConsumerKind[] = ['esm', 'cjs', 'bundled'];
/** What a program that only lists pets may weigh once bundled and minified. */
const SIZE_BUDGET = 30 * 1024;
/** The stock of the pet the consumers order one more of than there is. */
const STOCK = 1;

let project: ConsumerProject | undefined;
const compiled = new Map<ConsumerKind, CompiledConsumer>();
let hanging: HangingServer | undefined;
let receiver: WebhookReceiver | undefined;
let input: ConsumerInput;
/** The pets of the consumers' category, in the order they were created. */
const petIds: number[] = [];
/** The customer's order whose `order.created` delivery the consumers verify. */
let orderId: number;
const runs: ConsumerRun[] = [];

/** The installed package, packed and compiled against: a project of a user of it. */
async function consumerProject(): Promise<ConsumerProject> {
  project = await ConsumerProject.create();
  const made = project;
  const compiling = kinds.map(async (kind) =>
    compiled.set(kind, await made.compile(kind)),
  );
  // All settle before a failure is thrown: no compiler is left writing to a project removed.
  await Promise.allSettled(compiling);
  await Promise.all(compiling);
  return made;
}

/** A customer, the pets and stock the consumers need, and a delivery to verify. */
async function shop(): Promise<
  Omit<ConsumerInput, 'hangingUrl' | 'deliveryPath'> & Delivery
> {
  const customer = await api.signUp();
  const name = `SDK pages ${Date.now()}`;
  const categoryId = ok(
    await api.admin.categories.createCategory({ body: { name } }),
    201,
  ).body.id;
  for (const pet of ['Ada', 'Bo', 'Cy', 'Di', 'Ed']) {
    const created = await api.admin.pets.createPet({
      body: { name: pet, categoryId },
    });
    petIds.push(ok(created, 201).body.id);
  }
  const scarce = await stockedPet(api.admin, STOCK);
  const plenty = await stockedPet(api.admin, 100);

  receiver = await WebhookReceiver.start();
  const hooks = receiver;
  const body = { url: hooks.url, events: ['order.created' as const] };
  const hook = ok(
    await customer.api.webhooks.createWebhook({ body }),
    201,
  ).body;
  const placed = await customer.api.orders.placeOrder({
    body: { petId: plenty.petId, quantity: 1 },
  });
  const id = ok(placed, 201).body.id;
  if (id === undefined) throw new Error('[sdk] an order without an id');
  orderId = id;
  const receipt = await vi.waitFor(
    () =>
      hooks.receipts[0] ?? Promise.reject(new Error('[sdk] no delivery yet')),
    { timeout: 20_000, interval: 100 },
  );
  const headers = Object.fromEntries(
    Object.entries(receipt.headers).map(([header, value]) => [
      header,
      String(value),
    ]),
  );
  return {
    baseUrl: api.url,
    apiKey: customer.apiKey,
    categoryId,
    scarcePetId: scarce.petId,
    stock: STOCK,
    body: receipt.body,
    headers,
    secret: hook.secret,
  };
}

beforeAll(async () => {
  const making = consumerProject();
  const shopping = shop();
  const serving = HangingServer.start().then((started) => {
    hanging = started;
    return started;
  });
  // All settle before a failure is thrown: nothing is left at work when afterAll cleans up.
  await Promise.allSettled([making, shopping, serving]);
  const [made, bought, server] = await Promise.all([making, shopping, serving]);
  const { body, headers, secret, ...rest } = bought;
  const deliveryPath = join(made.dir, 'delivery.json');
  await writeFile(
    deliveryPath,
    JSON.stringify({ body, headers, secret } satisfies Delivery),
  );
  input = { ...rest, hangingUrl: server.url, deliveryPath };
});
afterEach(async () => {
  await Promise.all(
    runs.splice(0).map((started) => started[Symbol.asyncDispose]()),
  );
  // Whatever a test did, the next one starts with the store up.
  if (!api.stack.store.running) await api.stack.store.start();
});
afterAll(async () => {
  await hanging?.[Symbol.asyncDispose]();
  await receiver?.down();
  await project?.[Symbol.asyncDispose]();
});

function consumer(kind: ConsumerKind): CompiledConsumer {
  const found = compiled.get(kind);
  if (!found) throw new Error(`[sdk] the ${kind} consumer was not compiled`);
  return found;
}

function runConsumer(file: string, env: NodeJS.ProcessEnv): ConsumerRun {
  const started = new ConsumerRun(file, env);
  runs.push(started);
  return started;
}

const attempt = (line: Line) =>
  typeof line === 'object' ? line.attempt : undefined;

const errorReport = (
  name: string,
  is: 'petstore' | 'connection' | 'timeout' | 'webhook',
) => ({
  name,
  petstoreError: is === 'petstore',
  connectionError: is === 'connection' || is === 'timeout',
  timeoutError: is === 'timeout',
  webhookError: is === 'webhook',
});

describe('@petstore/client packed and installed in a project outside the workspace', () => {
  it('installs from its tarball alone, and node and tsc take it from that project', async () => {
    const { dir, installedPackage } = expectProject();
    expect(relative(workspaceRoot, dir)).toMatch(/^\.\.\//);
    const installed = (await readdir(join(dir, 'node_modules'))).filter(
      (n) => !n.startsWith('.'),
    );
    expect(installed).toEqual(['@petstore']);
    const manifest = JSON.parse(
      await readFile(join(installedPackage, 'package.json'), 'utf8'),
    ) as {
      dependencies?: Record<string, string>;
    };
    expect(manifest.dependencies ?? {}).toEqual({});

    const required = await run(
      process.execPath,
      ['-p', 'require.resolve("@petstore/client")'],
      {
        cwd: dir,
      },
    );
    const imported = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        'console.log(import.meta.resolve("@petstore/client"))',
      ],
      { cwd: dir },
    );
    const importedPath = fileURLToPath(imported.trim());
    expect(required.trim().startsWith(`${installedPackage}/`)).toBe(true);
    expect(importedPath.startsWith(`${installedPackage}/`)).toBe(true);
    expect(importedPath).not.toBe(required.trim());

    // The CommonJS consumer loads the package with require, the ESM one with import.
    const cjs = await readFile(consumer('cjs').entry, 'utf8');
    expect(cjs).toContain('require("@petstore/client")');
    expect(await readFile(consumer('esm').entry, 'utf8')).toMatch(
      /from '@petstore\/client'/,
    );
    // ESM and bundler resolution take the ESM declarations; node10 takes the CommonJS ones.
    const typesFrom = Object.fromEntries(
      kinds.map((kind) => [kind, consumer(kind).typesFrom]),
    );
    for (const path of Object.values(typesFrom))
      expect(path.startsWith(`${installedPackage}/`)).toBe(true);
    expect(typesFrom).toEqual({
      esm: expect.stringMatching(/\.d\.m?ts$/) as string,
      cjs: expect.stringMatching(/\.d\.cts$/) as string,
      bundled: expect.stringMatching(/\.d\.m?ts$/) as string,
    });
  });

  it.each(kinds)(
    'as %s: pages, retries through a 503, types a 409, times out, verifies a webhook',
    async (kind) => {
      await api.stack.store.stop();
      const started = runConsumer(consumer(kind).entry, {
        PETSTORE_SDK_INPUT: JSON.stringify(input),
      });
      // The consumer's first attempt meets the stopped store; its retries meet it started again.
      await started.next((line) => attempt(line) === 503);
      await api.stack.store.start();
      const report = (await started.result('report')) as Report;

      const attempts = started.lines
        .map(attempt)
        .filter((status) => status !== undefined);
      expect(attempts.at(-1)).toBe(200);
      expect(new Set(attempts.slice(0, -1))).toEqual(new Set([503]));
      expect(report.retry).toEqual({
        orderIds: [orderId],
        requestId: expect.any(String) as string,
      });

      expect(report.pagination).toEqual({
        iterated: petIds,
        firstPage: {
          ids: petIds.slice(0, 2),
          nextCursor: expect.any(String) as string,
          requestId: expect.any(String) as string,
        },
        secondPage: petIds.slice(2, 4),
      });
      expect(report.conflict).toEqual({
        ...errorReport('PetstoreError', 'petstore'),
        status: 409,
        code: 'insufficient_stock',
        requestId: expect.stringMatching(/\S/) as string,
      });
      expect(report.timeout).toEqual(
        errorReport('PetstoreTimeoutError', 'timeout'),
      );
      expect(report.webhook).toEqual({
        type: 'order.created',
        orderId,
        tampered: errorReport('PetstoreWebhookError', 'webhook'),
      });
      expect(report.requestId).toEqual({ type: 'string', enumerable: false });
    },
  );

  it('bundles a program that only lists pets into at most 30 KiB, and the bundle runs', async () => {
    const bundle = await expectProject().bundleProgram('list-pets.ts');
    console.log(
      `[sdk] list-pets.ts bundled (esbuild --bundle --minify --platform=node): ${bundle.bytes} bytes, ` +
        `${(bundle.bytes / 1024).toFixed(1)} KiB of a ${SIZE_BUDGET / 1024} KiB budget`,
    );
    expect(
      bundle.inputs.some((file) =>
        file.startsWith('node_modules/@petstore/client/'),
      ),
    ).toBe(true);
    expect(bundle.inputs.filter((file) => file.startsWith('..'))).toEqual([]);
    expect(bundle.bytes).toBeLessThanOrEqual(SIZE_BUDGET);

    const pets = ok(
      await api.admin.pets.listPets({ query: { limit: 100 } }),
      200,
    ).body;
    const listed = runConsumer(bundle.file, {
      PETSTORE_BASE_URL: input.baseUrl,
      PETSTORE_API_KEY: input.apiKey,
    });
    expect(await listed.result('pets')).toBe(pets.length);
  });
});

function expectProject(): ConsumerProject {
  if (!project) throw new Error('[sdk] the consumer project was not made');
  return project;
}
