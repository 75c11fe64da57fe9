import type { Context, Middleware } from 'koa';
import getRawBody from 'raw-body';
import { AppError } from './app-error.js';

const DROP_REST_MS = 5_000;

/**
 * 413 for a request body over the limit. The rest of the body is read and dropped, not refused
 * by ending the connection: a server that closes while the client still sends makes the client's
 * system reset the connection, and the client can lose the 413 it was sent. A body still arriving
 * 5 s after the answer closes the connection.
 */
function tooLarge(ctx: Context, limitBytes: number): AppError {
  ctx.res.once('finish', () => {
    if (ctx.req.complete) return;
    ctx.req.unpipe();
    ctx.req.resume();
    const close = setTimeout(() => ctx.req.socket.destroy(), DROP_REST_MS);
    ctx.req.once('close', () => {
      clearTimeout(close);
    });
  });
  return new AppError(
    'payload_too_large',
    `request body is larger than ${limitBytes} bytes`,
  );
}

/** Whether the request says it carries a body: chunked, or a length above 0. */
export function hasBody(ctx: Context): boolean {
  return ctx.get('Transfer-Encoding') !== '' || (ctx.request.length ?? 0) > 0;
}

/** The request's body, read whole: 413 once it is announced or read past `limitBytes`. */
export async function readBody(
  ctx: Context,
  limitBytes: number,
): Promise<Buffer> {
  const length = ctx.request.length ?? null;
  if ((length ?? 0) > limitBytes) throw tooLarge(ctx, limitBytes);
  try {
    return await getRawBody(ctx.req, { length, limit: limitBytes });
  } catch (error) {
    if (
      error instanceof Error &&
      'type' in error &&
      error.type === 'entity.too.large'
    ) {
      throw tooLarge(ctx, limitBytes);
    }
    throw new AppError(
      'invalid_json',
      'request body could not be read completely',
      {
        cause: error,
      },
    );
  }
}

async function readJson(ctx: Context, limitBytes: number): Promise<unknown> {
  const charset = ctx.request.charset.toLowerCase();
  if (
    !ctx.is('application/json', 'application/*+json') ||
    !['', 'utf-8', 'utf8'].includes(charset)
  ) {
    throw new AppError(
      'unsupported_content_type',
      'a request body must be sent with Content-Type: application/json',
    );
  }
  // TextDecoder, as raw-body's decoding did, drops a leading byte order mark.
  const text = new TextDecoder().decode(await readBody(ctx, limitBytes));
  try {
    // JSON.parse defines `__proto__` as an own property, so a body cannot reach any prototype.
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new AppError('invalid_json', 'request body is not valid JSON', {
      cause: error,
    });
  }
}

export function jsonBody({
  limitBytes = 64 * 1024,
}: { limitBytes?: number } = {}): Middleware {
  return async (ctx, next) => {
    if (hasBody(ctx)) ctx.request.body = await readJson(ctx, limitBytes);
    await next();
  };
}
