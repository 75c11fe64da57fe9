import type { Browser, Locator, Page } from 'playwright-core';
import { documentOperations } from '@petstore/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  launchChromium,
  watchPage,
  type PageWatch,
} from './support/browser.js';
import { testStackForFile } from './support/stack-for-file.js';

interface Schema {
  $ref?: string;
  allOf?: Schema[];
  required?: string[];
  items?: Schema;
}

interface Operation {
  tags: string[];
  deprecated?: boolean;
  'x-sunset'?: string;
  'x-stability'?: string;
  'x-hideTryItPanel'?: boolean;
  'x-codeSamples': { lang: string; label: string }[];
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
  'x-tagGroups'?: { name: string; tags: string[] }[];
}

const api = testStackForFile();
let document: OpenApiDocument;
/** Every operation of the document by `METHOD /path`. */
let operations: Map<string, Operation>;
let browser: Browser | undefined;
let page: Page;
let watch: PageWatch;

/** How the ids Scalar gives an operation end: `/<METHOD><path>`, quoted for a selector. */
function idEnd(key: string): string {
  return JSON.stringify(`/${key.replace(' ', '')}`);
}

/** The section Scalar renders an operation in. */
function sectionOf(key: string): Locator {
  return page.locator(`section[id$=${idEnd(key)}]`);
}

function operation(key: string): Operation {
  const found = operations.get(key);
  if (!found) throw new Error(`the document has no operation ${key}`);
  return found;
}

/**
 * The operations whose widgets are opened one by one: /v2's, and those of /v1 that differ from
 * their /v2 twin (the deprecated read, a hidden try-it panel). The others render as their twin.
 */
function checkedOperations(): [string, Operation][] {
  return [...operations].filter(
    ([key, entry]) =>
      key.includes(' /v2/') ||
      entry.deprecated === true ||
      entry['x-hideTryItPanel'] === true,
  );
}

/** The badges a reader sees above an operation's title. */
function badgesOf(key: string): Promise<string[]> {
  return sectionOf(key)
    .locator('.badge')
    .filter({ visible: true })
    .allInnerTexts();
}

/**
 * Scalar opens the first tag; each other one opens with its "Show More" button. It renders a tag,
 * and an operation in an open one, only once it comes near the viewport, and keeps it rendered:
 * until then an operation is an empty placeholder under the same id. With both versions there
 * are twice as many to open.
 */
async function openEveryOperation(): Promise<void> {
  const more = page.locator('button.show-more');
  const placeholder = page.locator('[data-placeholder="true"]');
  await vi.waitFor(
    async () => {
      // Dispatched, not clicked: a section still laying itself out may lie over the button.
      if ((await more.count()) > 0) await more.first().dispatchEvent('click');
      else if ((await placeholder.count()) > 0)
        await placeholder.first().scrollIntoViewIfNeeded();
      else await page.keyboard.press('End');
      const rendered = await Promise.all(
        [...operations.keys()].map((key) => sectionOf(key).count()),
      );
      const missing = [...operations.keys()].filter(
        (_, index) => rendered[index] === 0,
      );
      if (missing.length > 0)
        throw new Error(`[tests] /docs does not show ${missing.join(', ')}`);
    },
    { timeout: 240_000, interval: 100 },
  );
}

/** A schema with its `$ref` followed. */
function resolved(schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const named =
    document.components.schemas[
      schema.$ref.replace('#/components/schemas/', '')
    ];
  if (!named) throw new Error(`the document has no schema ${schema.$ref}`);
  return resolved(named);
}

/** The properties a schema requires, through `$ref` and `allOf`. */
function requiredOf(schema: Schema): string[] {
  const { required = [], allOf = [] } = resolved(schema);
  return [...required, ...allOf.flatMap(requiredOf)];
}

function itemsOf(schema: Schema): Schema {
  const { items } = resolved(schema);
  if (!items) throw new Error(`${JSON.stringify(schema)} is not an array`);
  return items;
}

function responseSchema(key: string, status: string): Schema {
  const schema =
    operation(key).responses[status]?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${key} has no JSON ${status} response`);
  return schema;
}

/** The example the page shows for a response, parsed. */
async function exampleOf(key: string, status: string): Promise<unknown> {
  const examples = sectionOf(key).locator('[aria-label="Example Responses"]');
  await examples.getByRole('tab', { name: `Status: ${status}` }).click();
  const code = examples.locator('pre code');
  let shown = '';
  await expect
    .poll(async () => {
      shown = (await code.textContent()) ?? '';
      return shown.trim().length;
    })
    .toBeGreaterThan(0);
  return JSON.parse(shown) as unknown;
}

/** An object with a value for every property the schema requires. */
function complete(schema: Schema) {
  return expect.objectContaining(
    Object.fromEntries(
      requiredOf(schema).map((name) => [name, expect.anything()]),
    ),
  ) as unknown;
}

beforeAll(async () => {
  document = (await (
    await fetch(`${api.url}/openapi.json`)
  ).json()) as OpenApiDocument;
  operations = new Map(
    documentOperations(document).map(({ method, path, operation }) => [
      `${method.toUpperCase()} ${path}`,
      operation,
    ]),
  );
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(10_000);
  watch = watchPage(page);
  await page.goto(`${api.url}/docs`);
  await openEveryOperation();
}, 300_000);

afterAll(async () => {
  await browser?.close();
});

describe('/docs in a browser', () => {
  it("offers the document's cURL, JavaScript and Python samples first on each operation", async () => {
    const listbox = page.getByRole('listbox');
    for (const [key, { 'x-codeSamples': samples }] of checkedOperations()) {
      const labels = ['cURL', 'JavaScript', 'Python'].map(
        (lang) => samples.find((sample) => sample.lang === lang)?.label,
      );
      await sectionOf(key).getByTestId('client-picker').click();
      await listbox.getByRole('option').first().waitFor();
      const offered = await listbox.getByRole('option').allInnerTexts();
      await page.keyboard.press('Escape');
      await listbox.waitFor({ state: 'hidden' });
      expect(offered.slice(0, 3), key).toEqual(labels);
    }
  }, 300_000);

  it('offers Test Request on each operation but those with x-hideTryItPanel', async () => {
    const hides = (key: string) => operation(key)['x-hideTryItPanel'] === true;
    const hidden = [...operations.keys()].filter(hides);
    expect(hidden).toContain('GET /v1/store/orders');
    const testRequest = (key: string) =>
      sectionOf(key).getByRole('button', { name: /^Test Request/ });
    for (const [key] of checkedOperations()) {
      // The button sits under the samples: once they are there, so is it, unless hidden.
      await sectionOf(key).getByTestId('client-picker').waitFor();
      expect(await testRequest(key).count(), key).toBe(hides(key) ? 0 : 1);
    }

    // Nor does the request client, opened on a neighbour, lead to them.
    const [tag] = operation(hidden[0] ?? '').tags;
    const neighbour = [...operations].find(
      ([key, entry]) => !hides(key) && entry.tags.includes(tag ?? ''),
    )?.[0];
    await testRequest(neighbour ?? '').click();
    const client = page.getByRole('dialog', { name: 'API Client' });
    await client.getByRole('button', { name: 'Show sidebar' }).click();
    const entryOf = (key: string) =>
      client.locator(`li[data-sidebar-id$=${idEnd(key)}]`);
    await entryOf(neighbour ?? '').waitFor();
    // The client's sidebar lists a tag's operations once its folder is open: the neighbour's.
    const besideIt = hidden.filter((key) =>
      operation(key).tags.includes(tag ?? ''),
    );
    const entries = await Promise.all(
      besideIt.map(async (key) => ({
        key,
        listed: (await entryOf(key).count()) > 0,
        shown: await entryOf(key).filter({ visible: true }).count(),
      })),
    );
    await client.getByRole('button', { name: 'Close Client' }).click();
    await client.waitFor({ state: 'hidden' });
    expect(entries).toEqual(
      besideIt.map((key) => ({ key, listed: true, shown: 0 })),
    );
  }, 150_000);

  it("shows a badge with each operation's x-stability", async () => {
    const unstable = [...operations].filter(
      ([, entry]) => entry['x-stability'] !== undefined,
    );
    expect(unstable.length).toBeGreaterThan(0);
    for (const [key, entry] of unstable) {
      const stability = entry['x-stability'] ?? '';
      const wanted = stability.charAt(0).toUpperCase() + stability.slice(1);
      await expect
        .poll(() => badgesOf(key), { message: key })
        .toContain(wanted);
    }
  });

  it('shows GET /v1/pets/{petId} as deprecated, with its sunset date', async () => {
    const key = 'GET /v1/pets/{petId}';
    expect(operation(key).deprecated).toBe(true);
    const sunset = /^\d{4}-\d{2}-\d{2}/.exec(
      operation(key)['x-sunset'] ?? '',
    )?.[0];
    expect(sunset).toBeDefined();
    await expect
      .poll(() => badgesOf(key))
      .toEqual(
        expect.arrayContaining([
          'Deprecated',
          expect.stringContaining(sunset ?? ''),
        ]),
      );
  });

  it('shows GET /v2/pets/{petId}, its successor, as the current read: no deprecation, no sunset', async () => {
    const key = 'GET /v2/pets/{petId}';
    expect(operation(key).deprecated).toBeUndefined();
    expect(operation(key)['x-sunset']).toBeUndefined();
    await sectionOf(key).getByTestId('client-picker').waitFor();
    const badges = await badgesOf(key);
    expect(badges).not.toContain('Deprecated');
    expect(badges.filter((badge) => badge.startsWith('Sunset'))).toEqual([]);
  });

  it('shows /v2 first and /v1 under it, in a group of its own', () => {
    const groups = document['x-tagGroups'] ?? [];
    expect(groups.at(-1)?.tags).toEqual(
      expect.arrayContaining(['Pets (v1)', 'Store (v1)']),
    );
    expect(operation('GET /v1/pets')?.tags).toEqual(['Pets (v1)']);
    expect(operation('GET /v2/pets')?.tags).toEqual(['Pets']);
  });

  it("shows the document's tag groups in the sidebar, Store's first and then Pets'", async () => {
    const wanted = (document['x-tagGroups'] ?? []).map(({ name, tags }) => ({
      name,
      tags,
    }));
    expect(wanted[0]?.tags).toContain('Store');
    expect(wanted[1]?.tags).toContain('Pets');
    // The reference's sidebar, not the request client's.
    const groups = page.locator(
      'aside:not(.scalar-client aside) li[data-sidebar-id*="/tag-group/"]',
    );
    const label = '[class~="group/button-label"]';
    const shown = async () =>
      Promise.all(
        (await groups.all()).map(async (group) => ({
          name: (
            await group.locator(`:scope > div > a ${label}`).innerText()
          ).trim(),
          tags: (
            await group
              .locator(`:scope > ul > li > div > a ${label}`)
              .allInnerTexts()
          ).map((tag) => tag.trim()),
        })),
      );
    await expect.poll(shown).toEqual(wanted);
  });

  it('shows full pets as the examples of the pet operations', async () => {
    const petOf = (key: string, status: string) =>
      complete(responseSchema(key, status));
    expect(requiredOf(responseSchema('GET /v1/pets/{petId}', '200'))).toEqual(
      expect.arrayContaining(['id', 'name', 'status']),
    );
    expect(await exampleOf('GET /v1/pets/{petId}', '200')).toEqual(
      petOf('GET /v1/pets/{petId}', '200'),
    );
    expect(await exampleOf('POST /v1/pets', '201')).toEqual(
      petOf('POST /v1/pets', '201'),
    );
    const list = await exampleOf('GET /v1/pets', '200');
    expect(list).toEqual(expect.any(Array));
    expect((list as unknown[]).length).toBeGreaterThan(0);
    for (const item of list as unknown[]) {
      expect(item).toEqual(
        complete(itemsOf(responseSchema('GET /v1/pets', '200'))),
      );
    }
  });

  // Last, so that it covers everything the tests above made the page do.
  it('logs no error or warning and requests nothing from another origin', async () => {
    expect(await watch.problems()).toEqual([]);
    expect(watch.requests).toContain(`${api.url}/openapi.json`);
    const origin = new URL(api.url).origin;
    expect(
      watch.requests.filter((url) => new URL(url).origin !== origin),
    ).toEqual([]);
  });
});
