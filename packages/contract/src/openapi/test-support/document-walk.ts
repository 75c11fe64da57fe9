import type { OpenAPIObject, OperationObject } from 'openapi3-ts/oas30';
import { documentOperations as operationsOf } from '../document-operations.js';

export interface TypedOperation {
  path: string;
  method: string;
  operation: OperationObject;
}

/** The document's operations, typed as openapi3-ts has them. */
export function documentOperations(document: OpenAPIObject): TypedOperation[] {
  return operationsOf(document).map((found) => ({
    ...found,
    operation: found.operation as OperationObject,
  }));
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
