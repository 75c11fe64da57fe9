import { AppError } from '@petstore/service-kit';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './keyset-page.js';

describe('webhook list cursors', () => {
  it('round-trips the creation time and id of a page’s last item', () => {
    for (const position of [
      { createdAt: new Date('2026-11-24T04:30:00.123Z'), id: 'wh_5Nc2rT8yK1pZ4wQeAbCd' },
      { createdAt: new Date(0), id: 'whd_8Gm3xV6bL2qR9tYs' },
    ]) {
      expect(decodeCursor(encodeCursor(position))).toEqual(position);
    }
  });

  it('starts from the beginning without a cursor', () => {
    expect(decodeCursor(undefined)).toBeUndefined();
  });

  it.each([
    'abc',
    Buffer.from('1.wh_abc').toString('base64url') + '=',
    Buffer.from('-1.wh_abc').toString('base64url'),
    Buffer.from('01.wh_abc').toString('base64url'),
    Buffer.from('1.wh_a;b').toString('base64url'),
    Buffer.from('1').toString('base64url'),
    Buffer.from('99999999999999999.wh_abc').toString('base64url'),
  ])('rejects %j as 400 validation_failed on query.cursor', (cursor) => {
    const error: unknown = (() => {
      try {
        return decodeCursor(cursor);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'validation_failed',
      details: [{ path: 'query.cursor', message: 'not a cursor this API gave out' }],
    });
  });
});
