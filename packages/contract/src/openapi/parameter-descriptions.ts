import type { OpenAPIObject, ParameterObject, PathItemObject } from 'openapi3-ts/oas30';

/** Moves a parameter's description from its schema, where pages do not show it, to itself. */
export function liftParameterDescriptions(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values<PathItemObject>(document.paths)) {
    for (const operation of [item.get, item.put, item.post, item.delete, item.patch]) {
      for (const parameter of (operation?.parameters ?? []) as ParameterObject[]) {
        const schema = parameter.schema as { description?: string } | undefined;
        if (parameter.description === undefined && schema?.description !== undefined) {
          parameter.description = schema.description;
          delete schema.description;
        }
      }
    }
  }
  return document;
}
