import type { Context } from 'koa';
import { AppError } from './app-error.js';

/** Opaque to clients: the base64url of the last id of the page before. Lists are ordered by id. */
export function encodeCursor(lastId: number): string {
  return Buffer.from(String(lastId)).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const text = Buffer.from(cursor, 'base64url').toString();
  if (!/^(0|[1-9][0-9]{0,15})$/.test(text) || encodeCursor(Number(text)) !== cursor) {
    throw new AppError('validation_failed', 'query.cursor: not a cursor this API gave out', {
      details: [{ path: 'query.cursor', message: 'not a cursor this API gave out' }],
    });
  }
  return Number(text);
}

/** Of `items` fetched with `limit + 1`; the `Link` is relative, so that it holds behind the gateway. */
export function pageOf<T extends { id: number }>(ctx: Context, items: T[], limit: number): T[];
export function pageOf<T>(
  ctx: Context,
  items: T[],
  limit: number,
  cursorOf: (last: T) => string,
): T[];
export function pageOf<T>(
  ctx: Context,
  items: T[],
  limit: number,
  cursorOf: (last: T) => string = (last) => encodeCursor((last as { id: number }).id),
): T[] {
  const page = items.slice(0, limit);
  const last = page.at(-1);
  if (items.length > limit && last !== undefined) {
    const query = new URLSearchParams(ctx.querystring);
    query.set('cursor', cursorOf(last));
    ctx.set('Link', `<${ctx.path}?${query.toString()}>; rel="next"`);
  }
  return page;
}
