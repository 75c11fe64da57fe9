import { documentOperations } from '@petstore/contract';
import type { Middleware } from 'koa';
import { z } from 'zod';
import { refuseUnlessRead, type OpenApiDocument } from './docs-page.js';

const INDEX_PATHS = new Set(['/', '/v1', '/v2']);

const OperationSchema = z.object({
  operationId: z.string(),
  summary: z.string().optional(),
  deprecated: z.boolean().optional(),
  security: z.array(z.record(z.string(), z.array(z.string()))).default([]),
});

export type ApiIndex = ReturnType<typeof apiIndex>;

/** The API's front page: where its reference is, and every operation of the document. */
export function apiIndex(document: OpenApiDocument, publicUrl: string) {
  const operations = documentOperations(document).map(
    ({ method, path, operation }) => {
      const { operationId, summary, deprecated, security } =
        OperationSchema.parse(operation);
      return {
        method: method.toUpperCase(),
        path,
        operationId,
        ...(summary === undefined ? {} : { summary }),
        needsApiKey: security.some(
          (requirement) => Object.keys(requirement).length > 0,
        ),
        ...(deprecated ? { deprecated: true as const } : {}),
      };
    },
  );
  return {
    name: document.info.title,
    version: document.info.version,
    docs: `${publicUrl}/docs`,
    openapi: `${publicUrl}/openapi.json`,
    authentication:
      'Authorization: Bearer <API key>. POST /v2/accounts creates an account and answers its first key, once; the admin key is ADMIN_API_KEY.',
    operations,
  };
}

export function apiIndexRoutes(index: ApiIndex): Middleware {
  return async (ctx, next) => {
    if (!INDEX_PATHS.has(ctx.path)) {
      await next();
      return;
    }
    refuseUnlessRead(ctx);
    ctx.body = index;
  };
}
