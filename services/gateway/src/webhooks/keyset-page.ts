// Webhooks and deliveries have string ids: their pages follow `(createdAt, _id)`, which
// service-kit's numeric cursors cannot carry; its `pageOf` takes `cursorOf` for such lists.
import { AppError } from '@petstore/service-kit';
import type { Filter } from 'mongodb';

export interface Position {
  createdAt: Date;
  id: string;
}

const CURSOR_TEXT = /^(0|[1-9][0-9]{0,15})\.([a-z]+_[A-Za-z0-9]{1,64})$/;

export function encodeCursor({ createdAt, id }: Position): string {
  return Buffer.from(`${createdAt.getTime()}.${id}`).toString('base64url');
}

/** The cursor of a page ending with `last`, for service-kit's `pageOf`. */
export function cursorOf(last: { createdAt: string; id: string }): string {
  return encodeCursor({ createdAt: new Date(last.createdAt), id: last.id });
}

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
