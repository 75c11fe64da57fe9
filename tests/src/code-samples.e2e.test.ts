import { execFile } from 'node:child_process';
import type { PetstoreClient } from '@petstore/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { ok } from './support/catalogue.js';
import { testStackForFile } from './support/stack-for-file.js';

interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

interface Operation {
  operationId: string;
  tags: string[];
  responses: Record<string, unknown>;
  'x-codeSamples': CodeSample[];
}

interface OpenApiDocument {
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end, whatever its exit code. */
function run(
  file: string,
  args: string[],
  env: Record<string, string>,
): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { env: { ...process.env, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const failedWith = typeof error?.code === 'number' ? error.code : null;
        const code = error ? failedWith : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * The operations whose samples run here, with the key they need and what must hold before each
 * run. The samples refer to the examples of the contract: pet 1 in category 1, order 1, a new
 * category named "Dogs", a fixed Idempotency-Key of its own for each operation.
 */
const chosen: {
  operationId: string;
  key: 'admin' | 'customer' | 'none';
  prepare?: () => Promise<void>;
}[] = [
  { operationId: 'listPets', key: 'customer' },
  { operationId: 'getCategory', key: 'customer' },
  // The name "Dogs" is free before each run: the one the previous run made gets another name.
  {
    operationId: 'createCategory',
    key: 'admin',
    prepare: () => renameCategory('Dogs'),
  },
  { operationId: 'setInventory', key: 'admin' },
  { operationId: 'getInventoryItem', key: 'customer' },
  // Both runs send the same Idempotency-Key and body: the second gets the first order again.
  { operationId: 'placeOrder', key: 'customer' },
  { operationId: 'getOrder', key: 'customer' },
  { operationId: 'listOrders', key: 'customer' },
  { operationId: 'getMe', key: 'customer' },
  { operationId: 'createKey', key: 'customer' },
  { operationId: 'listKeys', key: 'customer' },
  { operationId: 'sendMessage', key: 'customer' },
  { operationId: 'listWebhooks', key: 'customer' },
  { operationId: 'health', key: 'none' },
];

let customerKey: string;
let customer: PetstoreClient;
let operations: Map<string, Operation>;
let document: OpenApiDocument;

async function renameCategory(name: string): Promise<void> {
  const listed = ok(
    await api.admin.categories.listCategories({ query: { limit: 100 } }),
    200,
  );
  for (const category of listed.body.filter(
    (c) => c.name.toLowerCase() === name.toLowerCase(),
  )) {
    ok(
      await api.admin.categories.replaceCategory({
        params: { categoryId: String(category.id) },
        body: { name: `${name} (${category.id})` },
      }),
      200,
    );
  }
}

const api = testStackForFile();

beforeAll(async () => {
  const res = await fetch(`${api.url}/openapi.json`);
  document = (await res.json()) as OpenApiDocument;
  operations = new Map(
    Object.values(document.paths).flatMap((byMethod) =>
      Object.values(byMethod).map(
        (operation) => [operation.operationId, operation] as const,
      ),
    ),
  );

  // What the examples refer to: category 1, pet 1 in it with stock, and order 1 of the customer.
  ({ apiKey: customerKey, api: customer } = await api.signUp());
  const category = await api.admin.categories.createCategory({
    body: { name: 'Cats' },
  });
  const pet = await api.admin.pets.createPet({
    body: { name: 'Rex', categoryId: 1 },
  });
  const stock = await api.admin.inventory.setInventory({
    params: { petId: '1' },
    body: { quantity: 20 },
  });
  const order = await customer.orders.placeOrder({
    body: { petId: 1, quantity: 1 },
  });
  expect([category, pet, stock, order]).toMatchObject([
    { status: 201, body: { id: 1 } },
    { status: 201, body: { id: 1, categoryId: 1 } },
    { status: 200 },
    { status: 201, body: { id: 1 } },
  ]);
});

function sampleOf(operationId: string, lang: 'cURL' | 'JavaScript') {
  const operation = operations.get(operationId);
  if (!operation)
    throw new Error(`the document has no operation ${operationId}`);
  const sample = operation['x-codeSamples'].find((s) => s.lang === lang);
  if (!sample) throw new Error(`${operationId} has no ${lang} sample`);
  const success = Object.keys(operation.responses).find((status) =>
    /^2\d\d$/.test(status),
  );
  return { source: sample.source, success: Number(success) };
}

function keyFor(key: 'admin' | 'customer' | 'none'): Record<string, string> {
  if (key === 'none') return {};
  return { API_KEY: key === 'admin' ? api.stack.adminApiKey : customerKey };
}

describe('the code samples of the OpenAPI document, run against the running API', () => {
  it('address the API that serves the document', () => {
    expect(document.servers[0]?.url).toBe(api.url);
    for (const { operationId } of chosen) {
      for (const lang of ['cURL', 'JavaScript'] as const) {
        expect(sampleOf(operationId, lang).source).toContain(api.url);
      }
    }
  });

  it('cover every tag of the API', () => {
    const tags = new Set(
      chosen.flatMap(
        ({ operationId }) => operations.get(operationId)?.tags ?? [],
      ),
    );
    expect([...tags].sort()).toEqual([
      'Accounts',
      'Messages',
      'Meta',
      'Pets',
      'Store',
      'Webhooks',
    ]);
  });

  for (const { operationId, key, prepare } of chosen) {
    it(`runs the cURL sample of ${operationId}`, async () => {
      await prepare?.();
      const { source, success } = sampleOf(operationId, 'cURL');
      const ran = await run('bash', ['-c', source], keyFor(key));
      expect(ran, ran.stderr).toMatchObject({ code: 0 });
      const statusLine = /^HTTP\/[\d.]+ (\d{3})/m.exec(ran.stdout);
      expect(Number(statusLine?.[1]), ran.stdout).toBe(success);
    });

    it(`runs the JavaScript sample of ${operationId}`, async () => {
      await prepare?.();
      const { source, success } = sampleOf(operationId, 'JavaScript');
      const ran = await run(
        process.execPath,
        ['--input-type=module', '-e', source],
        keyFor(key),
      );
      expect(ran, ran.stderr).toMatchObject({ code: 0 });
      expect(Number(/^(\d{3})\b/.exec(ran.stdout)?.[1]), ran.stdout).toBe(
        success,
      );
    });
  }
});
