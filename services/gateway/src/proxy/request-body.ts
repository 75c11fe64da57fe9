import { Transform, type Readable } from 'node:stream';
import { AppError } from '@petstore/service-kit';
import type { Context } from 'koa';

/** A chunked request body grew past the limit while it was being forwarded. */
export class RequestBodyTooLarge extends Error {}

export function tooLarge(ctx: Context, limitBytes: number): AppError {
  ctx.set('Connection', 'close');
  return new AppError('payload_too_large', `request body is larger than ${limitBytes} bytes`);
}

/** Whether the request comes with a body: a length above 0, or chunks. */
function hasBody(ctx: Context): boolean {
  return ctx.get('Transfer-Encoding') !== '' || Boolean(ctx.request.length);
}

/**
 * Bodies are taken as sent, never decoded: a body with a `Content-Encoding` other than
 * `identity` is refused (415, `Accept-Encoding: identity`, RFC 9110 §15.5.16) rather than read as
 * JSON or forwarded. JSON bodies are small (64 KiB), and not decoding them leaves no way to send
 * a small body that decompresses into a large one.
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

/** The request body as a stream, unread and unchanged, refused past `limitBytes`. */
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
