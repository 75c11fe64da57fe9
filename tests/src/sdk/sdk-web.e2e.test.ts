import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createContext, runInContext } from 'node:vm';
import { serveHttp, type ServedHttp } from '@petstore/testkit';
import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, watchPage } from '../support/browser.js';
import { ok, stockedPet } from '../support/catalogue.js';
import {
  startTestStack,
  unthrottled,
  type TestStack,
} from '../support/test-stack.js';
import { ConsumerProject, type Bundle } from './consumer-project.js';
import type { WebInput, WebReport } from './consumers/web-program.js';

// @petstore/client where there is no Node: packed, installed outside the workspace, bundled by
// esbuild for the browser, and run in Chromium from a page on another origin than the API's
// (through the gateway's CORS), and in a context that has only web APIs, as edge runtimes do.

/** What a program that only lists pets may weigh once bundled for the browser and minified. */
const SIZE_BUDGET = 30 * 1024;
const STOCK = 10;

let project: ConsumerProject | undefined;
let site: ServedHttp | undefined;
let api: TestStack | undefined;
let browser: Browser | undefined;
let program: Bundle;
let input: WebInput;
const petIds: number[] = [];

/** A page that loads the bundled program, served from an origin of its own. */
async function serveSite(made: ConsumerProject): Promise<ServedHttp> {
  program = await made.bundleProgram('web-program.ts', 'browser');
  const script = await readFile(program.file, 'utf8');
  const page =
    '<!doctype html><title>Petstore</title><script src="/web-program.js"></script>';
  return serveHttp((req, res) => {
    const isScript = req.url === '/web-program.js';
    res.writeHead(200, {
      'content-type': isScript ? 'text/javascript' : 'text/html',
    });
    res.end(isScript ? script : page);
  });
}

/** An `order.created` delivery signed by Standard Webhooks' own library. */
function signedDelivery(): WebInput['delivery'] {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const id = `evt_web${Date.now()}`;
  const timestamp = new Date();
  const data = {
    id: 1,
    petId: 1,
    quantity: 1,
    shipDate: timestamp.toISOString(),
    complete: false,
  };
  const body = JSON.stringify({
    id,
    type: 'order.created',
    timestamp: data.shipDate,
    data,
  });
  const headers = {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, timestamp, body),
  };
  return { body, headers, secret };
}

beforeAll(async () => {
  project = await ConsumerProject.create();
  site = await serveSite(project);
  api = await startTestStack({ ...unthrottled, CORS_ORIGINS: site.url });
  const customer = await api.signUp();
  const name = `SDK web ${Date.now()}`;
  const categoryId = ok(
    await api.admin.categories.createCategory({ body: { name } }),
    201,
  ).body.id;
  for (const pet of ['Ada', 'Bo', 'Cy']) {
    const created = await api.admin.pets.createPet({
      body: { name: pet, categoryId },
    });
    petIds.push(ok(created, 201).body.id);
  }
  const { petId } = await stockedPet(api.admin, STOCK);
  input = {
    baseUrl: api.url,
    apiKey: customer.apiKey,
    categoryId,
    petId,
    stock: STOCK,
    delivery: signedDelivery(),
  };
});
afterAll(async () => {
  await browser?.close();
  await api?.[Symbol.asyncDispose]();
  await site?.close();
  await project?.[Symbol.asyncDispose]();
});

function expectProject(): ConsumerProject {
  if (!project) throw new Error('[sdk] the consumer project was not made');
  return project;
}

/** What every runtime must report: the SDK's behaviour against the stack. */
function expectReport(report: WebReport): void {
  expect(report.runtime).toEqual({ process: 'undefined', buffer: 'undefined' });
  expect(report.listed).toEqual(petIds);
  expect(report.firstPage).toEqual({
    status: 200,
    rateLimitRemaining: expect.stringMatching(/^\d+$/) as string,
  });
  const [first, again] = report.orders.sameKey;
  expect(first).toEqual(expect.any(Number));
  expect(again).toBe(first);
  expect(report.orders.generatedKey).toEqual(expect.any(Number));
  expect(report.orders.generatedKey).not.toBe(first);
  expect(report.error).toEqual({
    name: 'PetstoreError',
    status: 409,
    code: 'insufficient_stock',
    requestId: expect.stringMatching(/\S/) as string,
    headerRequestId: report.error.requestId,
    rateLimitRemaining: expect.stringMatching(/^\d+$/) as string,
  });
  expect(report.webhook).toEqual({
    type: 'order.created',
    tampered: 'PetstoreWebhookError',
  });
}

describe('@petstore/client bundled for the browser', () => {
  it('bundles a program that only lists pets into at most 30 KiB without a node: import', async () => {
    const bundle = await expectProject().bundleProgram(
      'list-pets.ts',
      'browser',
    );
    console.log(
      `[sdk] list-pets.ts bundled (esbuild --bundle --minify --platform=browser): ${bundle.bytes} bytes, ` +
        `${(bundle.bytes / 1024).toFixed(1)} KiB of a ${SIZE_BUDGET / 1024} KiB budget`,
    );
    expect(
      bundle.inputs.some((file) =>
        file.startsWith('node_modules/@petstore/client/'),
      ),
    ).toBe(true);
    expect(bundle.inputs.filter((file) => file.startsWith('..'))).toEqual([]);
    expect(bundle.bytes).toBeLessThanOrEqual(SIZE_BUDGET);
    for (const file of [bundle.file, program.file]) {
      expect(await readFile(file, 'utf8')).not.toMatch(/node:|require\(/);
    }
  });

  it('typechecks a browser program with the DOM types only, without Node types', async () => {
    await expect(
      expectProject().typecheckForBrowser('web-program.ts'),
    ).resolves.toBeUndefined();
  });

  it('lists, orders once per key, reads errors and headers, checks a webhook, in Chromium', async () => {
    browser = await launchChromium();
    const page = await browser.newPage();
    const watch = watchPage(page);
    // Chromium logs each error status it receives (the 409) as a console error: only uncaught
    // exceptions count here.
    const uncaught: string[] = [];
    page.on('pageerror', (error) => uncaught.push(error.message));
    await page.goto(`${site?.url}/`);

    const report = await page.evaluate(
      (given) =>
        (
          globalThis as unknown as {
            runPetstore(i: WebInput): Promise<WebReport>;
          }
        ).runPetstore(given),
      input,
    );

    expectReport(report);
    // Every call crossed origins: the page's is not the API's.
    expect(new URL(site?.url ?? '').origin).not.toBe(
      new URL(input.baseUrl).origin,
    );
    expect(
      watch.requests.filter((url) => url.startsWith(input.baseUrl)).length,
    ).toBeGreaterThan(5);
    expect(uncaught).toEqual([]);
  });

  it('does the same in a context with only web APIs, as an edge runtime is', async () => {
    const web = {
      fetch,
      crypto,
      URL,
      URLSearchParams,
      Headers,
      Request,
      Response,
      TextEncoder,
      TextDecoder,
      AbortController,
      AbortSignal,
      atob,
      btoa,
      setTimeout,
      clearTimeout,
      console,
    };
    const context = createContext({ ...web });
    runInContext(await readFile(program.file, 'utf8'), context, {
      filename: 'web-program.js',
    });
    const { runPetstore } = context as {
      runPetstore: (i: WebInput) => Promise<WebReport>;
    };

    const report = JSON.parse(
      JSON.stringify(await runPetstore(input)),
    ) as WebReport;

    expect(
      runInContext('typeof require + typeof process + typeof Buffer', context),
    ).toBe('undefinedundefinedundefined');
    expectReport(report);
  });
});
