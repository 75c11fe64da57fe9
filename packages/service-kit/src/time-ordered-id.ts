import { v7 } from 'uuid';

/**
 * `<prefix>_` and 32 hex digits that begin with the time in milliseconds (a UUID version 7), so
 * that ids made later sort later: documents stored under them are written next to the last ones,
 * where random ids would touch a different part of the `_id` index with every insert.
 */
export function timeOrderedId(prefix: string): string {
  return `${prefix}_${v7().replaceAll('-', '')}`;
}
