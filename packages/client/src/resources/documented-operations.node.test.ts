import { readdirSync, readFileSync } from 'node:fs';
import ts from '@typescript/typescript6';
import { describe, expect, it } from 'vitest';

// Node only: it reads the sources and the API document from disk; a browser has no files.

interface Operation {
  operationId: string;
  summary: string;
  deprecated?: boolean;
  'x-sunset'?: string;
  'x-stability'?: string;
}

interface DocumentedMethod {
  name: string;
  summary: string;
  tags: Map<string, string>;
}

/** The version the client talks: its methods name that version's operations, by their key. */
const CLIENT_VERSION = 'v2';
/** Methods that send no request. */
const LOCAL_METHODS = ['Webhooks.constructEvent'];

const document = JSON.parse(
  readFileSync(
    new URL('../../../contract/openapi.json', import.meta.url),
    'utf8',
  ),
) as { paths: Record<string, Record<string, Operation>> };

// An operation of an older version has its version after its key: `getPetV1`.
const versionSuffix = new RegExp(`${CLIENT_VERSION.toUpperCase()}$`);
const operations = Object.entries(document.paths)
  .filter(([path]) => path.startsWith(`/${CLIENT_VERSION}/`))
  .flatMap(([, methods]) =>
    Object.values(methods).filter((operation) => operation.operationId),
  )
  .map((operation) => ({
    ...operation,
    operationId: operation.operationId.replace(versionSuffix, ''),
  }));

/** Every method of every resource class, with its JSDoc read by the TypeScript compiler. */
function documentedMethods(): DocumentedMethod[] {
  const directory = new URL('./', import.meta.url);
  return readdirSync(directory)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .flatMap((file) => {
      const text = readFileSync(new URL(file, directory), 'utf8');
      const source = ts.createSourceFile(
        file,
        text,
        ts.ScriptTarget.Latest,
        true,
      );
      return source.statements
        .filter(ts.isClassDeclaration)
        .flatMap((declaration) =>
          declaration.members.filter(ts.isMethodDeclaration).map((method) => {
            const [doc] = ts.getJSDocCommentsAndTags(method).filter(ts.isJSDoc);
            const comment = ts.getTextOfJSDocComment(doc?.comment) ?? '';
            const tags = new Map(
              ts
                .getJSDocTags(method)
                .map((tag) => [
                  tag.tagName.text,
                  ts.getTextOfJSDocComment(tag.comment) ?? '',
                ]),
            );
            const name = `${declaration.name?.text}.${method.name.getText(source)}`;
            return { name, summary: comment.split('\n')[0] ?? '', tags };
          }),
        );
    });
}

const methods = documentedMethods();

describe('resource methods', () => {
  it('find every public operation of the document', () => {
    expect(operations.length).toBeGreaterThan(30);
    expect(methods.map((method) => method.name)).toContain('Pets.list');
  });

  it.each(operations)(
    '$operationId has one method, its JSDoc starting with the summary',
    (op) => {
      const marked = methods.filter(
        (method) => method.tags.get('operationId') === op.operationId,
      );
      const summarised = methods.filter(
        (method) => method.summary === op.summary,
      );

      expect(marked.map((method) => method.name)).toHaveLength(1);
      expect(summarised.map((method) => method.name)).toEqual(
        marked.map((method) => method.name),
      );
    },
  );

  it.each(operations)(
    '$operationId is deprecated and stable as the document says',
    (op) => {
      const [method] = methods.filter(
        (m) => m.tags.get('operationId') === op.operationId,
      );

      if (op.deprecated) {
        expect(op['x-sunset']).toBeDefined();
        expect(method?.tags.get('deprecated')).toContain(
          op['x-sunset']?.slice(0, 10),
        );
      } else {
        expect(method?.tags.has('deprecated')).toBe(false);
      }
      expect(method?.tags.has('beta')).toBe(op['x-stability'] === 'beta');
      expect(method?.tags.has('experimental')).toBe(
        op['x-stability'] === 'experimental',
      );
    },
  );

  it('name only operations of the document, except those that send nothing', () => {
    const ids = new Set(operations.map((op) => op.operationId));
    const strays = methods.filter(
      (method) =>
        !ids.has(method.tags.get('operationId') ?? '') &&
        !LOCAL_METHODS.includes(method.name),
    );

    expect(strays.map((method) => method.name)).toEqual([]);
  });

  it('do not mark pets.get deprecated: it reads GET /v2/pets/{petId}, the successor', () => {
    const get = methods.find((method) => method.name === 'Pets.get');

    expect(document.paths['/v2/pets/{petId}']?.get?.deprecated).toBeUndefined();
    expect(get?.tags.has('deprecated')).toBe(false);
  });
});
