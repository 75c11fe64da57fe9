import type { OpenAPIObject, OperationObject } from 'openapi3-ts/oas30';

export interface DocumentOperation {
  path: string;
  method: string;
  operation: OperationObject;
}

const methods = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
] as const;

export function documentOperations(
  document: OpenAPIObject,
): DocumentOperation[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    methods.flatMap((method) => {
      const operation = (item as Partial<Record<string, OperationObject>>)[
        method
      ];
      return operation === undefined ? [] : [{ path, method, operation }];
    }),
  );
}

export function operationById(
  document: OpenAPIObject,
  operationId: string,
): OperationObject {
  const found = documentOperations(document).find(
    ({ operation }) => operation.operationId === operationId,
  );
  if (found === undefined) {
    throw new Error(`no operation ${operationId} in the document`);
  }
  return found.operation;
}

/** Every object inside a JSON value, with the path of keys that leads to it. */
export function* objectsIn(
  value: unknown,
  path: string[] = [],
): Generator<{ path: string[]; object: Record<string, unknown> }> {
  if (typeof value !== 'object' || value === null) {
    return;
  }
  if (!Array.isArray(value)) {
    yield { path, object: value as Record<string, unknown> };
  }
  for (const [key, child] of Object.entries(value)) {
    yield* objectsIn(child, [...path, key]);
  }
}
