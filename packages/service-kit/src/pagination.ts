import type { Context } from 'koa';
import type { Collection, Document, Filter, WithId } from 'mongodb';
import { AppError } from './app-error.js';

/** Where a page ended in a list ordered by `(createdAt, _id)` with string ids. */
export interface TimePosition {
  createdAt: Date;
  id: string;
}

/** A page to read: after `after`, at most `limit` (one more than shown, to know of a next). */
export interface TimePage {
  after: TimePosition | undefined;
  limit: number;
}

type Order = 'ascending' | 'descending';
type Paged = { id: number } | { id: string; createdAt: string };
type CursorOf<T> = (last: T) => string;

// A number, then for lists ordered by creation time a `.` and a string id.
const CURSOR = /^(0|[1-9][0-9]{0,15})(?:\.([a-z]+_[A-Za-z0-9]{1,64}))?$/;

/**
 * Opaque to clients: the base64url of the page's last position, its id (lists ordered by numeric
 * id) or `<createdAt ms>.<id>` (lists ordered by creation time).
 */
export function encodeCursor(last: number | TimePosition): string {
  const text =
    typeof last === 'number'
      ? String(last)
      : `${last.createdAt.getTime()}.${last.id}`;
  return Buffer.from(text).toString('base64url');
}

/** The last numeric id of the page before, 0 without a cursor; by time: undefined without one. */
export function decodeCursor(cursor: string | undefined): number;
export function decodeCursor(
  cursor: string | undefined,
  by: 'time',
): TimePosition | undefined;
export function decodeCursor(cursor: string | undefined, by?: 'time') {
  if (cursor === undefined) return by ? undefined : 0;
  const [, ms, id = ''] =
    CURSOR.exec(Buffer.from(cursor, 'base64url').toString()) ?? [];
  const position = by ? { createdAt: new Date(Number(ms)), id } : Number(ms);
  if (ms === undefined || encodeCursor(position) !== cursor) {
    const message = 'not a cursor this API gave out';
    const details = [{ path: 'query.cursor', message }];
    const error = `query.cursor: ${message}`;
    throw new AppError('validation_failed', error, { details });
  }
  return position;
}

/** The Mongo filter of what follows `position` in a list sorted by `(createdAt, _id)`. */
export function afterPosition(
  position: TimePosition | undefined,
  order: Order,
) {
  if (!position) return {};
  const beyond = order === 'ascending' ? '$gt' : '$lt';
  const { createdAt, id } = position;
  return {
    $or: [
      { createdAt: { [beyond]: createdAt } },
      { createdAt, _id: { [beyond]: id } },
    ],
  };
}

/** A page to read in numeric `_id` order: after the id `after` (0: from the start). */
export interface IdPage {
  after: number;
  limit: number;
}

/**
 * The documents matching `filter` that follow `page.after`: in `_id` order for an `IdPage`, in
 * `(createdAt, _id)` order, `order` first, for a `TimePage`.
 */
export function findPage<T extends Document>(
  collection: Collection<T>,
  filter: Filter<T>,
  { after, limit }: IdPage | TimePage,
  order: Order = 'ascending',
): Promise<WithId<T>[]> {
  const direction = order === 'ascending' ? 1 : -1;
  const [following, sort] =
    typeof after === 'number'
      ? [{ _id: { $gt: after } }, { _id: 1 } as const]
      : [
          afterPosition(after, order),
          { createdAt: direction, _id: direction } as const,
        ];
  return collection
    .find({ ...filter, ...following } as Filter<T>)
    .sort(sort)
    .limit(limit)
    .toArray();
}

const cursorOfLast = ({
  id,
  createdAt,
}: {
  id: number | string;
  createdAt?: string;
}) =>
  encodeCursor(
    typeof id === 'number' ? id : { id, createdAt: new Date(createdAt!) },
  );

/** Of `items` fetched with `limit + 1`; the `Link` is relative, so that it works behind the gateway. */
export function pageOf<T extends Paged>(
  ctx: Context,
  items: T[],
  limit: number,
): T[];
export function pageOf<T>(
  ctx: Context,
  items: T[],
  limit: number,
  cursorOf: CursorOf<T>,
): T[];
export function pageOf<T>(
  ctx: Context,
  items: T[],
  limit: number,
  cursorOf?: CursorOf<T>,
) {
  const page = items.slice(0, limit);
  const last = page.at(-1);
  if (items.length > limit && last !== undefined) {
    const query = new URLSearchParams(ctx.querystring);
    query.set(
      'cursor',
      cursorOf ? cursorOf(last) : cursorOfLast(last as Paged),
    );
    ctx.set('Link', `<${ctx.path}?${query.toString()}>; rel="next"`);
  }
  return page;
}
