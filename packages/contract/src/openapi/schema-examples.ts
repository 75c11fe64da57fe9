import {
  isReferenceObject,
  type OpenAPIObject,
  type OperationObject,
  type ParameterObject,
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
 * Finishes the generated document in one pass over its operations. A parameter's description
 * moves from its schema, where pages do not show it, to itself. Every component, request body and
 * JSON success response gets an example of its own: Scalar shows a `$ref`'s example only when the
 * component has one, and generators read them as they are.
 */
export function finishDocument(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  for (const schema of Object.values(schemas)) {
    if (!isReferenceObject(schema))
      schema.example ??= schemaExample(schema, schemas);
  }
  const operations = Object.values(document.paths).flatMap(
    (item) => Object.values(item) as OperationObject[],
  );
  for (const operation of operations) {
    for (const parameter of (operation.parameters ?? []) as ParameterObject[]) {
      const schema = parameter.schema as SchemaObject | undefined;
      if (
        parameter.description === undefined &&
        schema?.description !== undefined
      ) {
        parameter.description = schema.description;
        delete schema.description;
      }
    }
    const bodies = [
      operation.requestBody as RequestBodyObject | undefined,
      ...Object.entries(operation.responses as Record<string, ResponseObject>)
        .filter(([status]) => isSuccess(Number(status)))
        .map(([, response]) => response),
    ];
    for (const body of bodies) {
      const media = body?.content?.['application/json'];
      if (media?.schema !== undefined)
        media.example ??= schemaExample(media.schema, schemas);
    }
  }
}
