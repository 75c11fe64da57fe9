import {
  isReferenceObject,
  type OpenAPIObject,
  type OperationObject,
  type ReferenceObject,
  type RequestBodyObject,
  type ResponseObject,
  type SchemaObject,
} from 'openapi3-ts/oas30';
import { isSuccess } from './responses.js';

type Schemas = Record<string, SchemaObject | ReferenceObject>;

/**
 * An example of a schema of the document: its own, else one built from the examples of its
 * parts (the component a `$ref` names, each property, the items). A field without an example
 * stays out, so that a test finds the required ones missing rather than a made-up value.
 */
export function schemaExample(
  schema: SchemaObject | ReferenceObject,
  schemas: Schemas,
): unknown {
  if (isReferenceObject(schema)) {
    const component = schemas[schema.$ref.replace('#/components/schemas/', '')];
    return component === undefined
      ? undefined
      : schemaExample(component, schemas);
  }
  if (schema.example !== undefined) return schema.example;
  if (schema.enum !== undefined) return schema.enum[0];
  if (schema.type === 'array')
    return schema.items ? [schemaExample(schema.items, schemas)] : [];
  if (schema.type !== 'object') return undefined;
  return Object.fromEntries(
    Object.entries(schema.properties ?? {})
      .map(([name, property]) => [name, schemaExample(property, schemas)])
      .filter(([, value]) => value !== undefined),
  );
}

/**
 * Gives every component, request body and JSON success response an example of its own: Scalar
 * shows a `$ref`'s example only when the component has one, and generators read them as they are.
 */
export function addExamples(
  document: OpenAPIObject,
  operations: OperationObject[],
): void {
  const schemas = document.components?.schemas ?? {};
  for (const schema of Object.values(schemas)) {
    if (!isReferenceObject(schema))
      schema.example ??= schemaExample(schema, schemas);
  }
  for (const operation of operations) {
    const successes = Object.entries(
      operation.responses as Record<string, ResponseObject>,
    )
      .filter(([status]) => isSuccess(Number(status)))
      .map(([, response]) => response);
    const bodies = [
      operation.requestBody as RequestBodyObject | undefined,
      ...successes,
    ];
    for (const body of bodies) {
      const media = body?.content?.['application/json'];
      if (media?.schema !== undefined)
        media.example ??= schemaExample(media.schema, schemas);
    }
  }
}
