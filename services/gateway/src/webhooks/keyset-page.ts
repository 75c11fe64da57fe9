// Pages of webhooks and deliveries: string ids, ordered by when they were made, then by id.
import { AppError, pageOf as pageAfter } from '@petstore/service-kit';
import type { Context } from 'koa';
import type { Filter } from 'mongodb';

/** Where a page ends: the `createdAt` and `_id` of its last item. */
export interface Position {
  createdAt: Date;
  id: string;
}

const CURSOR_TEXT = /^(0|[1-9][0-9]{0,15})\.([a-z]+_[A-Za-z0-9]{1,64})$/;

/** Opaque to clients: the base64url of `<createdAt in ms>.<id>`. */
export function encodeCursor({ createdAt, id }: Position): string {
  return Buffer.from(`${createdAt.getTime()}.${id}`).toString('base64url');
}

/** The position a cursor continues after; undefined without one; 400 for one not made here. */
export function decodeCursor(cursor: string | undefined): Position | undefined {
  if (cursor === undefined) return undefined;
  const match = CURSOR_TEXT.exec(Buffer.from(cursor, 'base64url').toString());
  const position = match && { createdAt: new Date(Number(match[1])), id: match[2]! };
  if (!position || encodeCursor(position) !== cursor) {
    throw new AppError('validation_failed', 'query.cursor: not a cursor this API gave out', {
      details: [{ path: 'query.cursor', message: 'not a cursor this API gave out' }],
    });
  }
  return position;
}

/** The documents after `position` in `(createdAt, _id)` order, ascending or descending. */
export function after<T extends { _id: string; createdAt: Date }>(
  position: Position | undefined,
  direction: 'ascending' | 'descending',
): Filter<T> {
  if (!position) return {};
  const beyond = direction === 'ascending' ? '$gt' : '$lt';
  return {
    $or: [
      { createdAt: { [beyond]: position.createdAt } },
      { createdAt: position.createdAt, _id: { [beyond]: position.id } },
    ],
  };
}

/** One page of `items` fetched with `limit + 1`, the next page's cursor after its last item. */
export function pageOf<T extends { id: string; createdAt: string }>(
  ctx: Context,
  items: T[],
  limit: number,
): T[] {
  return pageAfter(ctx, items, limit, (last) =>
    encodeCursor({ createdAt: new Date(last.createdAt), id: last.id }),
  );
}
