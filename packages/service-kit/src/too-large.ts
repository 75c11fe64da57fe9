import type { Context } from 'koa';
import { AppError } from './app-error.js';

const DROP_REST_MS = 5_000;

/**
 * 413 for a request body over the limit. The rest of the body is read and dropped, not refused
 * by ending the connection: a server that closes while the client still sends makes the client's
 * system reset the connection, and the client can lose the 413 it was sent. A body still arriving
 * 5 s after the answer closes the connection.
 */
export function tooLarge(ctx: Context, limitBytes: number): AppError {
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
