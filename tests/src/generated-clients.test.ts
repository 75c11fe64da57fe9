import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ts from '@typescript/typescript6';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  pythonWrapperNames,
  resources,
  typeAt,
} from './generated-clients/document.js';
import type { OpenApiDocument } from './generated-clients/document.js';
import * as tools from './generated-clients/tools.js';

const { documentPath, removeDir, run, tempDir, tsc } = tools;
// The first run fetches the generators: a jar from Maven Central and a venv from PyPI.
const SETUP_TIMEOUT = 300_000;
const tscStrict =
  '--noEmit --strict --module esnext --moduleResolution bundler'.split(' ');

const document = JSON.parse(
  await readFile(documentPath, 'utf8'),
) as OpenApiDocument;

/** Operations answering a resource: status, component, and what typescript-fetch returns. */
const bodies: [
  operationId: string,
  status: number,
  component: string,
  fetchType: string,
][] = [
  ['getPet', 200, 'Pet', 'Pet'],
  ['createPet', 201, 'Pet', 'Pet'],
  ['listPets', 200, 'Pets', 'Array<Pet>'],
  ['getCategory', 200, 'Category', 'Category'],
  ['placeOrder', 201, 'Order', 'Order'],
  ['getInventoryItem', 200, 'InventoryItem', 'InventoryItem'],
];

describe('openapi-typescript', () => {
  let dir = '';
  let schema: ts.SourceFile;

  beforeAll(async () => {
    dir = await tempDir();
    await run(tools.openapiTypescript, [
      documentPath,
      '--output',
      join(dir, 'schema.d.ts'),
    ]);
    const text = await readFile(join(dir, 'schema.d.ts'), 'utf8');
    schema = ts.createSourceFile(
      'schema.d.ts',
      text,
      ts.ScriptTarget.Latest,
      true,
    );
  }, SETUP_TIMEOUT);
  afterAll(() => removeDir(dir));

  it('declares every resource in components["schemas"], Pets as a list of Pet', () => {
    for (const name of resources)
      expect(typeAt(schema, `components.schemas.${name}`)).toBeTruthy();
    expect(typeAt(schema, 'components.schemas.Pets')).toBe(
      'components["schemas"]["Pet"][]',
    );
  });

  it.each(bodies)(
    'types the %s %i body as components["schemas"]["%s"]',
    (id, status, name) => {
      const body = typeAt(
        schema,
        `operations.${id}.responses.${status}.content.application/json`,
      );
      expect(body).toBe(`components["schemas"]["${name}"]`);
    },
  );

  it('compiles a program that uses the types with tsc --strict', async () => {
    await writeFile(join(dir, 'use.ts'), usesSchema);
    await run(tsc, [...tscStrict, '--target', 'es2022', 'use.ts'], {
      cwd: dir,
    });
  });
});

const usesSchema = `import type { components, operations } from './schema';

type Pet = components['schemas']['Pet'];
type Created = operations['createPet']['responses'][201]['content']['application/json'];
type Fetched = operations['getPet']['responses'][200]['content']['application/json'];
type Page = operations['listPets']['responses'][200]['content']['application/json'];
type Placed = operations['placeOrder']['responses'][201]['content']['application/json'];
type Stock = operations['getInventoryItem']['responses'][200]['content']['application/json'];
type Found = operations['getCategory']['responses'][200]['content']['application/json'];

const created: Created = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };
declare const fetched: Fetched;
const pets: Pet[] = [created, fetched];
const page: Page = pets;
const order: Placed = { id: 1, petId: page[0]?.id, quantity: 1, complete: false };
const stock: Stock = { petId: 1, quantity: 3, status: 'available' };
const category: Found = { id: 1, name: 'Dogs' };
export const summary = [page[0]?.name, order.quantity, stock.quantity, category.name].join(' ');
`;

describe('OpenAPI Generator typescript-fetch', () => {
  let dir = '';
  let apis = '';

  beforeAll(async () => {
    const jar = await tools.openapiGeneratorJar();
    dir = await tempDir();
    const generate = [
      'generate',
      '-g',
      'typescript-fetch',
      '-i',
      documentPath,
      '-o',
      dir,
    ];
    await run('java', ['-jar', jar, ...generate]);
    for (const file of await readdir(join(dir, 'apis'))) {
      apis += await readFile(join(dir, 'apis', file), 'utf8');
    }
  }, SETUP_TIMEOUT);
  afterAll(() => removeDir(dir));

  it('writes a model file for every resource', async () => {
    const models = await readdir(join(dir, 'models'));
    expect(models).toEqual(
      expect.arrayContaining(resources.map((name) => `${name}.ts`)),
    );
  });

  it.each(bodies)(
    'returns the %s body as the model',
    (id, _status, _component, fetchType) => {
      expect(apis).toMatch(
        new RegExp(`async ${id}\\(.*\\): Promise<${fetchType}> \\{`),
      );
    },
  );

  it('compiles with tsc --strict', async () => {
    const target = ['--target', 'es2020', '--lib', 'es2020,dom'];
    await run(tsc, [...tscStrict, ...target, 'index.ts'], { cwd: dir });
  });
});

describe('openapi-python-client', () => {
  let dir = '';
  let generated = '';
  let python: (script: string, ...args: string[]) => Promise<string>;

  beforeAll(async () => {
    const bin = await tools.pythonClientBin();
    dir = await tempDir();
    const out = join(dir, 'petstore_client');
    const generate = [
      'generate',
      '--path',
      documentPath,
      '--output-path',
      out,
      '--meta',
      'none',
    ];
    // Its venv on PATH, so that the generator formats its output with the ruff installed there.
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
    generated = await run(join(bin, 'openapi-python-client'), generate, {
      env,
    });
    python = (script, ...args) =>
      run(join(bin, 'python'), ['-c', script, ...args], { cwd: dir });
  }, SETUP_TIMEOUT);
  afterAll(() => removeDir(dir));

  it('exports a model named for every resource and none for a wrapped body', async () => {
    const script =
      'import json, petstore_client.models as m; print(json.dumps(m.__all__))';
    const models = JSON.parse(await python(script)) as string[];
    expect(models, generated).toEqual(expect.arrayContaining(resources));
    const wrappers = pythonWrapperNames(document);
    const named = models.filter((name) => wrappers.includes(name));
    expect(
      named,
      'models made for a resource body instead of its component',
    ).toEqual([]);
  });

  it("builds a Pet from the document's Pet example and gives the same fields back", async () => {
    const example = document.components.schemas.Pet?.example as
      { name: string } | undefined;
    expect(example, 'components.schemas.Pet.example').toBeDefined();
    const script = [
      'import json, sys',
      'from petstore_client.models import Pet',
      'pet = Pet.from_dict(json.loads(sys.argv[1]))',
      'print(json.dumps({"name": pet.name, "fields": pet.to_dict()}))',
    ].join('\n');
    const out = JSON.parse(
      await python(script, JSON.stringify(example)),
    ) as unknown;
    expect(out).toEqual({ name: example?.name, fields: example });
  });
});
