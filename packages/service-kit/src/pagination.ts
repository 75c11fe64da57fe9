import type { Context } from 'koa';
import type { Collection, Filter } from 'mongodb';
import { AppError } from './app-error.js';

/** Where a page ended in a list ordered by `(createdAt, _id)` with string ids. */
export interface TimePosition {
  createdAt: Date;
  id: string;
}

const NUMBER = '(0|[1-9][0-9]{0,15})';
const ID_CURSOR = new RegExp(`^${NUMBER}$`);
const TIME_CURSOR = new RegExp(`^${NUMBER}\\.([a-z]+_[A-Za-z0-9]{1,64})$`);

/**
 * Opaque to clients: the base64url of the page's last position, its id (lists ordered by numeric
 * id) or `<createdAt ms>.<id>` (lists ordered by creation time).
 */
export function encodeCursor(last: number | TimePosition): string {
  const text = typeof last === 'number' ? String(last) : `${last.createdAt.getTime()}.${last.id}`;
  return Buffer.from(text).toString('base64url');
}

/** The last numeric id of the page before, 0 without a cursor; by time: undefined without one. */
export function decodeCursor(cursor: string | undefined): number;
export function decodeCursor(cursor: string | undefined, by: 'time'): TimePosition | undefined;
export function decodeCursor(cursor: string | undefined, by?: 'time') {
  if (cursor === undefined) return by ? undefined : 0;
  const text = Buffer.from(cursor, 'base64url').toString();
  const match = (by ? TIME_CURSOR : ID_CURSOR).exec(text);
  const position =
    match && (by ? { createdAt: new Date(Number(match[1])), id: match[2]! } : Number(match[1]));
  if (position === null || encodeCursor(position) !== cursor) {
    throw new AppError('validation_failed', 'query.cursor: not a cursor this API gave out', {
      details: [{ path: 'query.cursor', message: 'not a cursor this API gave out' }],
    });
  }
  return position;
}

/** The Mongo filter of what follows `position` in a list sorted by `(createdAt, _id)`. */
export function afterPosition(
  position: TimePosition | undefined,
  order: 'ascending' | 'descending',
) {
  if (!position) return {};
  const beyond = order === 'ascending' ? '$gt' : '$lt';
  return {
    $or: [
      { createdAt: { [beyond]: position.createdAt } },
      { createdAt: position.createdAt, _id: { [beyond]: position.id } },
    ],
  };
}

/** A page to read: after `after`, at most `limit` (one more than shown, to know of a next). */
export interface TimePage {
  after: TimePosition | undefined;
  limit: number;
}

/** The documents matching `filter` that follow `page.after` in `(createdAt, _id)` order. */
export function findPage<T extends { _id: string; createdAt: Date }>(
  collection: Collection<T>,
  filter: Filter<T>,
  { after, limit }: TimePage,
  order: 'ascending' | 'descending',
) {
  const direction = order === 'ascending' ? 1 : -1;
  return collection
    .find({ ...filter, ...afterPosition(after, order) } as Filter<T>)
    .sort({ createdAt: direction, _id: direction })
    .limit(limit)
    .toArray();
}

interface TimePaged {
  id: string;
  createdAt: string;
}
type Paged = { id: number } | TimePaged;

function cursorOfLast(last: Paged): string {
  if (typeof last.id === 'number') return encodeCursor(last.id);
  return encodeCursor({ id: last.id, createdAt: new Date((last as TimePaged).createdAt) });
}

/** Of `items` fetched with `limit + 1`; the `Link` is relative, so that it holds behind the gateway. */
export function pageOf<T extends Paged>(ctx: Context, items: T[], limit: number): T[];
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
  cursorOf: (last: T) => string = (last) => cursorOfLast(last as Paged),
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
