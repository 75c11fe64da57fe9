// Docs: the API's index at / and /v1, its OpenAPI document and reference page, served offline.
import { contract, type OpenApiDocumentSchema } from '@petstore/contract';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import type { z } from 'zod';
import { DOCS_HTML, docsContentSecurityPolicy } from './docs-page.js';

export type OpenApiDocument = z.output<typeof OpenApiDocumentSchema>;

/** The meta operations the gateway serves itself: the OpenAPI document and the reference page. */
export const docsContract = { openapi: contract.meta.openapi, docs: contract.meta.docs };

export interface DocsRoutesDeps {
  /** The OpenAPI document, made once at start. */
  openApiDocument: OpenApiDocument;
  publicUrl: string;
}

export function docsRoutes({
  openApiDocument,
  publicUrl,
}: DocsRoutesDeps): RouterImplementation<typeof docsContract> {
  return {
    openapi: () => Promise.resolve({ status: 200, body: openApiDocument }),
    docs: ({ ctx }) => {
      ctx.set('Content-Security-Policy', docsContentSecurityPolicy(publicUrl));
      return Promise.resolve({ status: 200, body: DOCS_HTML });
    },
  };
}
