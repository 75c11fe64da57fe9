import { contract, type OpenApiDocumentSchema } from '@petstore/contract';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import type { z } from 'zod';
import { DOCS_HTML, docsContentSecurityPolicy } from './docs-page.js';

export type OpenApiDocument = z.output<typeof OpenApiDocumentSchema>;

export const docsContract = { openapi: contract.meta.openapi, docs: contract.meta.docs };

export interface DocsRoutesDeps {
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
