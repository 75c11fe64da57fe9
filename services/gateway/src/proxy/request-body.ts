import { Transform, type Readable } from 'node:stream';
import { AppError } from '@petstore/service-kit';
import type { Context } from 'koa';

/** A chunked request body grew past the limit while it was being forwarded. */
export class RequestBodyTooLarge extends Error {}

export function tooLarge(ctx: Context, limitBytes: number): AppError {
  ctx.set('Connection', 'close');
  return new AppError('payload_too_large', `request body is larger than ${limitBytes} bytes`);
}

/** The request body as a stream, unread and unchanged, refused past `limitBytes`. */
export function requestBody(ctx: Context, limitBytes: number): Readable | undefined {
  const length = ctx.request.length;
  const chunked = ctx.get('Transfer-Encoding') !== '';
  if (!chunked && !length) return undefined;
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
