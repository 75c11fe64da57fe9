import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { findPackageJSON } from 'node:module';
import { dirname, join } from 'node:path';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import {
  contract,
  documentOperations,
  type OpenApiDocumentSchema,
} from '@petstore/contract';
import { AppError } from '@petstore/service-kit';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import type { Middleware } from 'koa';
import { z } from 'zod';

const DOCS_SCRIPT_PATH = '/docs/scalar.js';
const DOCS_INIT_PATH = '/docs/init.js';
const INDEX_PATHS = ['/', '/v1', '/v2'];

/**
 * Scalar's bundle and a start-up script, both served here (no inline script), under a line that
 * says which key to paste: Scalar itself shows an empty token field. `css` is the page's own.
 */
const docsHtml = (css: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Petstore API reference</title>
    <link rel="icon" href="data:," />
    <style>
      .petstore-key-hint { margin: 0; padding: 10px 16px; font: 14px/1.5 system-ui, sans-serif; }
      .petstore-key-hint { color: #3d3000; background: #fff6d6; border-bottom: 1px solid #e6cf7a; }
      ${css}
    </style>
  </head>
  <body>
    <p class="petstore-key-hint" id="petstore-key-hint">
      To try an operation, paste an API key as the <strong>Bearer Token</strong> under
      <strong>Authentication</strong>: the admin key (<code>ADMIN_API_KEY</code>, which
      <code>pnpm start</code> prints and keeps in <code>.data/admin-api-key</code>) for every
      operation, or the <code>apiKey</code> that <code>POST /v2/accounts</code> answers for a
      customer's.
    </p>
    <div id="petstore-reference"></div>
    <script src="${DOCS_SCRIPT_PATH}"></script>
    <script src="${DOCS_INIT_PATH}"></script>
  </body>
</html>
`;

/** Scalar fetches nothing from elsewhere: no font CDN, telemetry, AI agent or request proxy. */
const SCALAR_CONFIGURATION = {
  url: '/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
  hideClientButton: true,
  persistAuth: false,
  authentication: { preferredSecurityScheme: 'bearerAuth' },
};

// Not `#api-reference`: that id makes the bundle mount itself with its default configuration.
const DOCS_INIT = `Scalar.createApiReference('#petstore-reference', ${JSON.stringify(SCALAR_CONFIGURATION)});\n`;

/** `/docs` loads from this origin only, plus the styles Scalar injects. */
function docsContentSecurityPolicy(publicUrl: string): string {
  return [
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:; font-src 'self' data:",
    `connect-src 'self' ${new URL(publicUrl).origin}; worker-src 'self' blob:`,
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  ].join('; ');
}

const gzipAsync = promisify(gzip);

/**
 * Scalar's standalone bundle, where its package.json's `browser` field says it is: the package
 * exports no path to it.
 */
function scalarBundlePath(): string {
  const manifest = findPackageJSON('@scalar/api-reference', import.meta.url);
  if (manifest === undefined)
    throw new Error('[docs] @scalar/api-reference is not installed');
  const { browser } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    browser: string;
  };
  return join(dirname(manifest), browser);
}

const HidesTryIt = z.object({ 'x-hideTryItPanel': z.literal(true) });

/**
 * A style rule per operation whose entry says `x-hideTryItPanel: true`: Scalar 1.76 can hide its
 * "Test Request" button only everywhere at once. It renders each operation as a `<section>` whose
 * id ends in `/<METHOD><path>`; the rule hides the button there, and the operation's entry in the
 * sidebar of the request client (the modal that button opens), so no other operation leads to it.
 */
function hiddenTryItCss({ paths }: { paths: Record<string, object> }): string {
  return Object.entries(paths)
    .flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => HidesTryIt.safeParse(operation).success)
        .map(([method]) => JSON.stringify(`/${method.toUpperCase()}${path}`)),
    )
    .map(
      (idEnd) =>
        `section[id$=${idEnd}] .show-api-client-button, .scalar-client li[data-sidebar-id$=${idEnd}] { display: none; }`,
    )
    .join('\n');
}

const OperationSchema = z.object({
  operationId: z.string(),
  summary: z.string().optional(),
  deprecated: z.boolean().optional(),
  security: z.array(z.record(z.string(), z.array(z.string()))).default([]),
});

export type ApiIndex = ReturnType<typeof apiIndex>;

/** The API's front page: where its reference is, and every operation of the document. */
function apiIndex(document: OpenApiDocument, publicUrl: string) {
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

/**
 * The pages outside the contract, which only know `GET` and `HEAD`: the API's index at `/`, `/v1`
 * and `/v2`, and the reference page's scripts.
 */
export function docsPages(
  document: OpenApiDocument,
  publicUrl: string,
): Middleware {
  const index = apiIndex(document, publicUrl);
  const bundlePath = scalarBundlePath();
  let bundle: Promise<{ plain: Buffer; gzipped: Buffer }> | undefined;
  const load = () => {
    bundle ??= readFile(bundlePath).then(async (plain) => ({
      plain,
      gzipped: await gzipAsync(plain),
    }));
    return bundle;
  };
  const paths = [...INDEX_PATHS, DOCS_SCRIPT_PATH, DOCS_INIT_PATH];
  return async (ctx, next) => {
    if (!paths.includes(ctx.path)) {
      await next();
      return;
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new AppError(
        'method_not_allowed',
        `${ctx.method} is not allowed on ${ctx.path}`,
        { headers: { Allow: 'GET, HEAD' } },
      );
    }
    if (INDEX_PATHS.includes(ctx.path)) {
      ctx.body = index;
      return;
    }
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    if (ctx.path === DOCS_INIT_PATH) {
      ctx.body = DOCS_INIT;
      return;
    }
    const { plain, gzipped } = await load();
    ctx.vary('Accept-Encoding');
    if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
      ctx.set('Content-Encoding', 'gzip');
      ctx.body = gzipped;
    } else {
      ctx.body = plain;
    }
  };
}

export type OpenApiDocument = z.output<typeof OpenApiDocumentSchema>;

export const docsContract = {
  openapi: contract.meta.openapi,
  docs: contract.meta.docs,
};

export function docsRoutes(
  openApiDocument: OpenApiDocument,
  publicUrl: string,
): RouterImplementation<typeof docsContract> {
  const html = docsHtml(hiddenTryItCss(openApiDocument));
  return {
    openapi: () => Promise.resolve({ status: 200, body: openApiDocument }),
    docs: ({ ctx }) => {
      ctx.set('Content-Security-Policy', docsContentSecurityPolicy(publicUrl));
      return Promise.resolve({ status: 200, body: html });
    },
  };
}
