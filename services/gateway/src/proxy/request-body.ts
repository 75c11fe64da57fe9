import { AppError, hasBody } from '@petstore/service-kit';
import type { Context } from 'koa';

/**
 * An encoded body is refused (415, RFC 9110 §15.5.16), never decoded: bodies are small, and no
 * small body can then decompress into a large one.
 */
export function refuseEncodedBody(ctx: Context): void {
  const encoding = ctx.get('Content-Encoding').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity' || !hasBody(ctx)) return;
  throw new AppError(
    'unsupported_content_encoding',
    `a request body must not be encoded (Content-Encoding: ${encoding}); send it as plain JSON`,
    { headers: { 'Accept-Encoding': 'identity' } },
  );
}
