import type { OpenAPIObject } from 'openapi3-ts/oas30';

/** The committed document, `packages/contract/openapi.json` (the same path from `src/` and `dist/`). */
export const openApiJsonUrl = new URL('../../openapi.json', import.meta.url);

/** The document as it is committed: two-space indentation and a trailing newline. */
export function openApiJson(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
