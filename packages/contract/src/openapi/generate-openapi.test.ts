import type {
  ExampleObject,
  OpenAPIObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from 'openapi3-ts/oas30';
import { describe, expect, it } from 'vitest';
import { contract, internalContract } from '../contract.js';
import { type ErrorCode, errorStatus } from '../errors.js';
import { getPetSunset } from '../pets.js';
import { documentedOperations } from './generate-openapi.js';
import { generateOpenApi } from './generate-openapi.js';
import { BODY_KEYS_RULE } from './operation-request.js';
import { operationIdOf, toOpenApiPath } from '../contract-operations.js';
import {
  documentOperations,
  objectsIn,
  operationById,
} from './test-support/document-walk.js';

const document: OpenAPIObject = generateOpenApi(contract);
const operations = documentOperations(document);
const metadataOf = new Map(
  documentedOperations(contract).map((operation) => [
    operationIdOf(operation),
    operation.metadata,
  ]),
);
const isIdName = (name: string) => name === 'id' || name.endsWith('Id');

/** The `code` enum of an error response's schema: `allOf: [Error, { code: { enum } }]`. */
function errorCodesOf(
  schema: SchemaObject | ReferenceObject | undefined,
): string[] {
  const [, codes] = (schema as SchemaObject | undefined)?.allOf ?? [];
  const code = (codes as SchemaObject | undefined)?.properties?.code as
    SchemaObject | undefined;
  return (code?.enum ?? []) as string[];
}

/** `paths.<path>.<method>.responses.<4xx or 5xx>.content.application/json.schema`. */
const isErrorSchema = (path: string[]) =>
  path.length === 8 &&
  path[3] === 'responses' &&
  Number(path[4]) >= 400 &&
  path[7] === 'schema';

/** The components request bodies name (`NewPet`, `PetPatch`, …), read from the document. */
const requestComponents = new Set(
  documentOperations(document).flatMap(({ operation }) => {
    const schema = (
      operation.requestBody as {
        content?: Record<string, { schema?: unknown }>;
      }
    )?.content?.['application/json']?.schema as ReferenceObject | undefined;
    return schema?.$ref === undefined
      ? []
      : [schema.$ref.replace('#/components/schemas/', '')];
  }),
);
const isRequestComponent = (path: string[]) =>
  path[0] === 'components' &&
  path[1] === 'schemas' &&
  requestComponents.has(path[2] ?? '');

describe('generateOpenApi', () => {
  it('writes an OpenAPI 3.0.3 document of the current API version, 2.0.0, for the local gateway', () => {
    expect(document.openapi).toBe('3.0.3');
    expect(document.info).toMatchObject({
      title: 'Petstore API',
      version: '2.0.0',
    });
    expect(document.servers).toEqual([{ url: 'http://127.0.0.1:8080' }]);
  });

  it('uses the servers it is given, and aims the code samples at the first', () => {
    const servers: [{ url: string }] = [
      { url: 'https://petstore.example.com' },
    ];
    const custom = generateOpenApi(contract, { servers });
    const samplesOf = (id: string) =>
      operationById(custom, id)['x-codeSamples'] as { source: string }[];

    expect(custom.servers).toEqual(servers);
    for (const { source } of samplesOf('listPets')) {
      expect(source).toContain('https://petstore.example.com/v2/pets');
    }
    for (const { source } of samplesOf('listPetsV1')) {
      expect(source).toContain('https://petstore.example.com/v1/pets');
    }
  });

  it('documents every public route under its route key, and no internal one', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    const internalPaths = Object.values(internalContract.pets).map(({ path }) =>
      toOpenApiPath(path),
    );

    expect(ids.sort()).toEqual([...metadataOf.keys()].sort());
    expect(internalPaths.length).toBeGreaterThan(0);
    for (const path of internalPaths) {
      expect(Object.keys(document.paths)).not.toContain(path);
    }
    expect(
      Object.keys(document.paths).filter((path) => path.includes('internal')),
    ).toEqual([]);
  });

  it('names the shared shapes as components and refers to them', () => {
    const names = Object.keys(document.components?.schemas ?? {});
    for (const name of [
      'Pet',
      'NewPet',
      'Category',
      'Order',
      'InventoryItem',
      'Error',
    ]) {
      expect(names).toContain(name);
    }
    expect(JSON.stringify(document.paths)).toContain(
      '"$ref":"#/components/schemas/Pet"',
    );
  });

  it('gives every integer id, in schemas and parameters, format int64', () => {
    const ids: string[] = [];
    for (const { path, object } of objectsIn(document)) {
      const properties = (object.properties ?? {}) as Record<
        string,
        Record<string, unknown>
      >;
      const named: [string, Record<string, unknown>][] =
        Object.entries(properties);
      if (object.in !== undefined && typeof object.name === 'string') {
        named.push([object.name, object.schema as Record<string, unknown>]);
      }
      for (const [name, schema] of named.filter(
        ([name, schema]) => isIdName(name) && schema.type === 'integer',
      )) {
        ids.push(name);
        expect(schema.format, `${path.join('.')}.${name}`).toBe('int64');
      }
    }
    expect(ids).toEqual(
      expect.arrayContaining(['id', 'petId', 'categoryId', 'orderId']),
    );
  });

  it('reads path ids as integers, though the contract parses them from strings', () => {
    const parameters = operationById(document, 'getPet').parameters ?? [];
    expect(parameters).toContainEqual(
      expect.objectContaining({
        name: 'petId',
        in: 'path',
        required: true,
        schema: expect.objectContaining({
          type: 'integer',
          format: 'int64',
        }) as unknown,
      }),
    );
  });

  it('moves parameter descriptions from the schema onto the parameter, where reference pages show them', () => {
    const parameters = operations.flatMap(({ operation }) =>
      (operation.parameters ?? []).map(
        (parameter) => parameter as ParameterObject,
      ),
    );
    expect(
      parameters.filter(
        ({ schema }) => schema !== undefined && 'description' in schema,
      ),
    ).toEqual([]);
    expect(
      parameters.find(({ name }) => name === 'limit')?.description,
    ).toBeTruthy();
  });

  it('never writes a type array (3.0 has nullable instead)', () => {
    for (const { path, object } of objectsIn(document)) {
      expect(Array.isArray(object.type), path.join('.')).toBe(false);
    }
  });

  it('declares every tag it uses, with a description', () => {
    const declared = (document.tags ?? []).map(({ name }) => name);
    const resources = ['Pets', 'Store', 'Accounts', 'Messages', 'Webhooks'];
    expect(declared).toEqual([
      ...resources,
      'Meta',
      ...resources.map((tag) => `${tag} (v1)`),
    ]);
    for (const tag of document.tags ?? []) {
      expect(tag.description).toBeTruthy();
    }
    for (const { operation } of operations) {
      expect(declared).toEqual(
        expect.arrayContaining(operation.tags ?? ['none']),
      );
    }
    expect(operationById(document, 'listCategories').tags).toEqual(['Pets']);
    expect(operationById(document, 'listInventory').tags).toEqual(['Store']);
    expect(operationById(document, 'listInventoryV1').tags).toEqual([
      'Store (v1)',
    ]);
  });

  it('asks for the bearer key exactly on the operations that need one, and says none on the rest', () => {
    expect(document.components?.securitySchemes?.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    for (const { operation } of operations) {
      const needsKey =
        metadataOf.get(operation.operationId ?? '')?.auth === 'key';
      expect(operation.security, operation.operationId).toEqual(
        needsKey ? [{ bearerAuth: [] }] : [],
      );
    }
    expect(operationById(document, 'createAccount').security).toEqual([]);
  });

  it('says on every request body which keys are refused, which OpenAPI 3.0 cannot express', () => {
    const bodies = operations.flatMap(({ operation }) =>
      operation.requestBody === undefined ? [] : [operation.requestBody],
    );
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) {
      expect(body).toMatchObject({ description: BODY_KEYS_RULE });
    }
    expect(document.info.description).toContain(
      'starts with `$` or contains `.`',
    );
  });

  it('links what a POST creates to the operations on it, by its id', () => {
    const created = (operationId: string) =>
      (
        operationById(document, operationId).responses as Record<
          string,
          ResponseObject
        >
      )[operationId === 'sendMessage' ? '202' : '201']?.links;

    const petLinks = created('createPet') ?? {};
    expect(Object.keys(petLinks).sort()).toEqual([
      'deletePet',
      'getPet',
      'replacePet',
      'updatePet',
    ]);
    for (const [operationId, link] of Object.entries(petLinks)) {
      expect(link).toMatchObject({
        operationId,
        parameters: { petId: '$response.body#/id' },
      });
    }
    expect(Object.keys(created('placeOrder') ?? {}).sort()).toEqual([
      'cancelOrder',
      'getOrder',
      'updateOrder',
    ]);
    expect(Object.keys(created('sendMessage') ?? {})).toEqual(['getMessage']);
    expect(created('createAccount')).toBeUndefined();
  });

  it('gives every operation code samples in cURL, JavaScript and Python', () => {
    for (const { operation } of operations) {
      const samples = operation['x-codeSamples'] as {
        lang: string;
        label: string;
        source: string;
      }[];
      expect(
        samples.map(({ lang }) => lang),
        operation.operationId,
      ).toEqual(['cURL', 'JavaScript', 'Python']);
      for (const sample of samples) {
        expect(sample.source.length).toBeGreaterThan(0);
      }
    }
  });

  it('answers every 4xx and 5xx with the Error schema, its codes listed, an example of each', () => {
    let errors = 0;
    for (const { operation } of operations) {
      const responses: Record<string, ResponseObject> = operation.responses;
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) < 400) continue;
        errors += 1;
        const at = `${operation.operationId} ${status}`;
        const json = response.content?.['application/json'];
        const codes = errorCodesOf(json?.schema);
        expect(json?.schema, at).toEqual({
          allOf: [
            { $ref: '#/components/schemas/Error' },
            {
              type: 'object',
              properties: { code: { type: 'string', enum: codes } },
            },
          ],
        });
        expect(codes.length, at).toBeGreaterThan(0);
        expect(
          codes.map((code) => errorStatus[code as ErrorCode]),
          at,
        ).toEqual(codes.map(() => Number(status)));
        const examples = (json?.examples ?? {}) as Record<
          string,
          ExampleObject
        >;
        expect(Object.keys(examples), at).toEqual(codes);
        for (const [code, example] of Object.entries(examples)) {
          expect(example.value, `${at} ${code}`).toMatchObject({
            code,
            status: Number(status),
          });
        }
      }
    }
    expect(errors).toBeGreaterThan(operations.length);
  });

  it('gives placing an order its own conflicts: 409 insufficient_stock, 422 unknown_pet or a reused key', () => {
    const responses = operationById(document, 'placeOrder').responses as Record<
      string,
      ResponseObject
    >;
    const json = (status: string) =>
      responses[status]?.content?.['application/json'];

    expect(errorCodesOf(json('409')?.schema)).toEqual(['insufficient_stock']);
    expect(json('409')?.examples).toEqual({
      insufficient_stock: expect.objectContaining({
        value: expect.objectContaining({
          code: 'insufficient_stock',
          status: 409,
        }) as unknown,
      }) as unknown,
    });
    expect(errorCodesOf(json('422')?.schema)).toEqual([
      'unknown_pet',
      'idempotency_key_reused',
    ]);
    expect(errorCodesOf(json('400')?.schema)).toContain('validation_failed');
  });

  it('marks GET /v1/pets/{petId} deprecated with its sunset and successor, and describes the deprecation headers', () => {
    const getPet = operationById(document, 'getPetV1');
    const ok = getPet.responses['200'] as ResponseObject;

    expect(getPet.deprecated).toBe(true);
    expect(getPet['x-sunset']).toBe(getPetSunset);
    expect(getPet.description).toContain('`GET /v2/pets/{petId}`');
    expect(Object.keys(ok.headers ?? {})).toEqual(
      expect.arrayContaining(['Deprecation', 'Sunset', 'Link']),
    );
    expect(Object.keys(getPet.responses)).toContain('410');
    const deprecated = operations.filter(
      ({ operation }) => operation.deprecated === true,
    );
    expect(deprecated.map(({ operation }) => operation.operationId)).toEqual([
      'getPetV1',
    ]);
  });

  it('documents GET /v2/pets/{petId} as the current read, without deprecation', () => {
    const getPet = operationById(document, 'getPet');
    const ok = getPet.responses['200'] as ResponseObject;

    expect(operations.find(({ operation }) => operation === getPet)?.path).toBe(
      '/v2/pets/{petId}',
    );
    expect(getPet.deprecated).toBeUndefined();
    expect(getPet['x-sunset']).toBeUndefined();
    expect(getPet['x-badges']).toBeUndefined();
    expect(Object.keys(getPet.responses)).not.toContain('410');
    expect(Object.keys(ok.headers ?? {})).not.toEqual(
      expect.arrayContaining(['Deprecation', 'Sunset']),
    );
  });

  it('hides the try-it panel of listOrders in both versions', () => {
    expect(operationById(document, 'listOrders')['x-hideTryItPanel']).toBe(
      true,
    );
    expect(operationById(document, 'listOrdersV1')['x-hideTryItPanel']).toBe(
      true,
    );
  });

  it('marks the key-management operations experimental and the messages beta', () => {
    for (const id of ['createKey', 'listKeys', 'revokeKey']) {
      expect(operationById(document, id)['x-stability'], id).toBe(
        'experimental',
      );
    }
    for (const id of ['sendMessage', 'getMessage', 'createWebhook']) {
      expect(operationById(document, id)['x-stability'], id).toBe('beta');
    }
  });

  it('shows each stability and the sunset date as a badge the reference page reads', () => {
    const badgesOf = (id: string) =>
      (operationById(document, id)['x-badges'] ?? []) as {
        name: string;
        position: string;
        color: string;
      }[];
    const stabilityNames = { experimental: 'Experimental', beta: 'Beta' };

    for (const { operation } of operations) {
      const stability = operation['x-stability'] as
        keyof typeof stabilityNames | undefined;
      const names = badgesOf(operation.operationId ?? '').map(
        ({ name }) => name,
      );
      expect(names, operation.operationId).toEqual(
        stability === undefined
          ? expect.not.arrayContaining(['Beta', 'Experimental'])
          : [stabilityNames[stability]],
      );
    }
    expect(badgesOf('createKey')).toEqual([
      expect.objectContaining({ name: 'Experimental', position: 'before' }),
    ]);
    expect(badgesOf('getPetV1')).toEqual([
      expect.objectContaining({
        name: `Sunset ${getPetSunset.slice(0, 10)}`,
        position: 'before',
      }),
    ]);
    expect(badgesOf('getPet')).toEqual([]);
    expect(badgesOf('listPets')).toEqual([]);
    const colours = new Set(
      ['createKey', 'sendMessage', 'getPetV1'].map(
        (id) => badgesOf(id)[0]?.color,
      ),
    );
    expect(colours.size).toBe(3);
  });

  it('groups every tag once for the navigation, Store and then Pets first', () => {
    const groups = document['x-tagGroups'] as {
      name: string;
      tags: string[];
    }[];
    const grouped = groups.flatMap(({ tags }) => tags);

    const tagNames = (document.tags ?? []).map(({ name }) => name);

    expect(groups.slice(0, 2).map(({ tags }) => tags)).toEqual([
      ['Store'],
      ['Pets'],
    ]);
    expect([...grouped].sort()).toEqual([...tagNames].sort());
    const slug = (name: string) =>
      name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    for (const { name } of groups) {
      expect(tagNames.map(slug), name).not.toContain(slug(name));
    }
  });

  it('names every resource body by its component, never wrapping it', () => {
    const wrapped = [...objectsIn(document)].filter(
      ({ path, object }) =>
        ('allOf' in object || 'anyOf' in object || 'oneOf' in object) &&
        !isErrorSchema(path),
    );
    expect(wrapped.map(({ path }) => path.join('.'))).toEqual([]);
    for (const { operation } of operations) {
      const bodies = Object.entries({
        request: operation.requestBody,
        ...operation.responses,
      });
      for (const [status, body] of bodies.filter(
        ([status]) => !(Number(status) >= 400),
      )) {
        const schema = (body as ResponseObject | undefined)?.content?.[
          'application/json'
        ]?.schema;
        if (schema === undefined) continue;
        const named =
          'items' in schema && schema.items !== undefined
            ? schema.items
            : schema;
        expect(named, `${operation.operationId} ${status}`).toEqual({
          $ref: expect.stringMatching(
            /^#\/components\/schemas\/[A-Z][A-Za-z]+$/,
          ) as unknown,
        });
      }
    }
    expect(operationById(document, 'getPet').responses['200']).toMatchObject({
      content: {
        'application/json': { schema: { $ref: '#/components/schemas/Pet' } },
      },
    });
  });

  it('closes every object of a request body, and leaves responses open', () => {
    const open = [...objectsIn(document)].filter(
      ({ path, object }) =>
        object.type === 'object' &&
        object.additionalProperties !== false &&
        (path.includes('requestBody') || isRequestComponent(path)),
    );
    expect(open.map(({ path }) => path.join('.'))).toEqual([]);
    const schemas = document.components?.schemas ?? {};
    expect(schemas.NewOrder).toMatchObject({ additionalProperties: false });
    expect(schemas.Order).not.toHaveProperty('additionalProperties');
  });

  it('states the webhook URL rule: http(s) without credentials in the pattern, refused addresses in words', () => {
    const { url } =
      (document.components?.schemas?.NewWebhook as SchemaObject).properties ??
      {};
    const { pattern = '', description = '' } = url as SchemaObject;
    for (const accepted of [
      'https://hooks.example.com/x',
      'http://10.0.0.1/',
      'HTTPS://Example.com',
    ]) {
      expect(new RegExp(pattern, 'u').test(accepted), accepted).toBe(true);
    }
    for (const refused of [
      'ftp://example.com',
      'hooks.example.com',
      'mailto:a@example.com',
      'https://user:secret@example.com/',
    ]) {
      expect(new RegExp(pattern, 'u').test(refused), refused).toBe(false);
    }
    expect(description).toMatch(
      /loopback, private, link-local or metadata address is 422 `invalid_webhook_url`/,
    );
    expect(description).not.toContain('not `https`');
  });

  it('shows the optional Idempotency-Key header, a 409 and a 422 on every POST but a message', () => {
    const posts = Object.values(document.paths).flatMap((item) =>
      item.post ? [item.post] : [],
    );
    expect(posts.length).toBe(2 * 10);
    for (const operation of posts) {
      expect(operation.parameters, operation.operationId).toContainEqual(
        expect.objectContaining({
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
        }),
      );
      expect(Object.keys(operation.responses), operation.operationId).toContain(
        '422',
      );
      if (!operation.operationId?.startsWith('sendMessage')) {
        expect(
          Object.keys(operation.responses),
          operation.operationId,
        ).toContain('409');
      }
    }
  });

  it('documents the headers each kind of response carries', () => {
    const headersOf = (operationId: string, status: string) =>
      Object.keys(
        (
          operationById(document, operationId).responses[
            status
          ] as ResponseObject
        ).headers ?? {},
      );

    expect(headersOf('createPet', '201')).toEqual(
      expect.arrayContaining(['Location', 'API-Version']),
    );
    expect(headersOf('listPets', '200')).toContain('Link');
    expect(headersOf('listPets', '401')).toContain('WWW-Authenticate');
    expect(headersOf('listPets', '429')).toEqual(
      expect.arrayContaining([
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'Retry-After',
      ]),
    );
    expect(headersOf('getPet', '200')).not.toContain('Location');
  });

  it('serves the docs page as HTML', () => {
    const docs = operations.find(({ path }) => path === '/docs')?.operation;
    expect(
      Object.keys((docs?.responses['200'] as ResponseObject).content ?? {}),
    ).toEqual(['text/html']);
  });
});
