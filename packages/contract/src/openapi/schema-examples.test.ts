import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import type {
  ExampleObject,
  MediaTypeObject,
  OpenAPIObject,
  SchemaObject,
} from 'openapi3-ts/oas30';
import { describe, expect, it } from 'vitest';
import { contract } from '../contract.js';
import { generateOpenApi } from './generate-openapi.js';
import { schemaExample } from './schema-examples.js';
import { documentOperations, objectsIn } from './test-support/document-walk.js';

const document: OpenAPIObject = generateOpenApi(contract);
const schemas = document.components?.schemas ?? {};

// The document's schemas read as JSON Schema draft 7 plus OpenAPI 3.0's `nullable` (which Ajv
// reads), `example` and the `int64` format; 3.0's boolean `exclusiveMinimum` would make Ajv throw.
// `$ref`s point into the document.
const ajv = new Ajv({ allErrors: true });
// A CommonJS module: its plugin is `default` both as typed and at run time.
formats.default(ajv);
ajv.addFormat('int64', { type: 'number', validate: Number.isSafeInteger });
ajv.addKeyword('example');
ajv.addKeyword('components');
ajv.addSchema({ components: { schemas } }, 'openapi.json');

function errorsOf(schema: unknown, value: unknown): string | undefined {
  const rebased = JSON.parse(
    JSON.stringify(schema).replaceAll(
      '"#/components/',
      '"openapi.json#/components/',
    ),
  ) as object;
  const validate = ajv.compile(rebased);
  return validate(value) ? undefined : ajv.errorsText(validate.errors);
}

/** Every media type of the document (bodies, responses, callbacks) with the path to it. */
const mediaTypes = [...objectsIn(document.paths)].filter(({ path }) =>
  /^[a-z]+\/[a-z+.-]+$/.test(path.at(-1) ?? ''),
) as unknown as { path: string[]; object: MediaTypeObject }[];

describe('examples in the document', () => {
  it.each(Object.entries(schemas))(
    'component %s has a valid example',
    (_name, schema) => {
      const example: unknown = (schema as SchemaObject).example;
      expect(example).toBeDefined();
      expect(errorsOf(schema, example)).toBeUndefined();
    },
  );

  it('gives every request body and JSON success response an example', () => {
    const missing = documentOperations(document).flatMap(({ operation }) =>
      Object.entries({ request: operation.requestBody, ...operation.responses })
        .filter(([status]) => status === 'request' || /^2/.test(status))
        .filter(([, body]) => {
          const json = (
            body as { content?: Record<string, MediaTypeObject> } | undefined
          )?.content?.['application/json'];
          return json !== undefined && json.example === undefined;
        })
        .map(([status]) => `${operation.operationId} ${status}`),
    );
    expect(missing).toEqual([]);
  });

  it('validates every media-type example against its schema', () => {
    const withExamples = mediaTypes.filter(
      ({ object }) => object.example !== undefined,
    );
    expect(withExamples.length).toBeGreaterThan(30);
    for (const { path, object } of withExamples) {
      expect(
        errorsOf(object.schema, object.example),
        path.join(' '),
      ).toBeUndefined();
    }
  });

  it('validates every named example (one per error code) against its schema', () => {
    const named = mediaTypes.flatMap(({ path, object }) =>
      Object.entries(object.examples ?? {}).map(([name, example]) => ({
        at: [...path, name].join(' '),
        schema: object.schema,
        value: (example as ExampleObject).value as unknown,
      })),
    );
    expect(named.length).toBeGreaterThan(100);
    for (const { at, schema, value } of named) {
      expect(errorsOf(schema, value), at).toBeUndefined();
    }
    expect(
      errorsOf(named[0]?.schema, { code: 'teapot', message: 'x', status: 400 }),
    ).toMatch(/code/);
  });

  it('finds a broken example', () => {
    expect(
      errorsOf(
        { $ref: '#/components/schemas/Pet' },
        { name: '', categoryId: 1.5 },
      ),
    ).toMatch(
      /must have required property 'id'.*must NOT have fewer than 1 characters.*must match format "int64"/,
    );
    expect(
      errorsOf({ $ref: '#/components/schemas/Account' }, { name: null }),
    ).not.toMatch(/name/);
  });
});

describe('schemaExample', () => {
  it('builds an example from a reference, the properties and the items, leaving out a field without one', () => {
    const parts = {
      Tag: { type: 'string', enum: ['a', 'b'] },
      Item: {
        type: 'object',
        properties: {
          id: { type: 'integer', example: 7 },
          tags: { type: 'array', items: { $ref: '#/components/schemas/Tag' } },
          note: { type: 'string' },
        },
      },
    } satisfies Record<string, SchemaObject>;

    expect(
      schemaExample(
        { type: 'array', items: { $ref: '#/components/schemas/Item' } },
        parts,
      ),
    ).toEqual([{ id: 7, tags: ['a'] }]);
    expect(
      schemaExample({ type: 'object', example: { given: true } }, parts),
    ).toEqual({
      given: true,
    });
  });
});
