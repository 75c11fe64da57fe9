import { Transform, type Readable } from 'node:stream';
import { AppError, tooLarge } from '@petstore/service-kit';
import type { Context } from 'koa';

export class RequestBodyTooLarge extends Error {}

function hasBody(ctx: Context): boolean {
  return ctx.get('Transfer-Encoding') !== '' || Boolean(ctx.request.length);
}

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

export function requestBody(ctx: Context, limitBytes: number): Readable | undefined {
  if (!hasBody(ctx)) return undefined;
  const length = ctx.request.length;
  const chunked = ctx.get('Transfer-Encoding') !== '';
  if (length !== undefined && length > limitBytes) throw tooLarge(ctx, limitBytes);
  if (!chunked) return ctx.req;
  let received = 0;
  const limiter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > limitBytes) callback(new RequestBodyTooLarge());
      else callback(null, chunk);
    },
  });
  ctx.req.on('error', (error) => limiter.destroy(error));
  return ctx.req.pipe(limiter);
}
