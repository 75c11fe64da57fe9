import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.js';
import {
  afterPosition,
  decodeCursor,
  encodeCursor,
  pageOf,
} from './pagination.js';
import { route, startTestService } from './test-support/test-service.js';

describe('cursors', () => {
  it('round-trips the last id of a page', () => {
    for (const id of [1, 42, Number.MAX_SAFE_INTEGER])
      expect(decodeCursor(encodeCursor(id))).toBe(id);
  });

  it('starts from the beginning without a cursor', () => {
    expect(decodeCursor(undefined)).toBe(0);
  });

  it.each([
    '',
    'abc',
    encodeCursor(1) + '=',
    Buffer.from('-1').toString('base64url'),
    'MDE',
  ])('rejects %j as 400 validation_failed on query.cursor', (cursor) => {
    const error: unknown = (() => {
      try {
        return decodeCursor(cursor);
      } catch (thrown) {
        return thrown;
      }
    })();
    expectRefused(error);
  });
});

describe('cursors by creation time', () => {
  it('round-trips the creation time and id of a page’s last item', () => {
    for (const position of [
      {
        createdAt: new Date('2026-11-24T04:30:00.123Z'),
        id: 'wh_5Nc2rT8yK1pZ4wQeAbCd',
      },
      { createdAt: new Date(0), id: 'whd_8Gm3xV6bL2qR9tYs' },
    ]) {
      expect(decodeCursor(encodeCursor(position), 'time')).toEqual(position);
    }
  });

  it('starts from the beginning without a cursor', () => {
    expect(decodeCursor(undefined, 'time')).toBeUndefined();
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
        return decodeCursor(cursor, 'time');
      } catch (thrown) {
        return thrown;
      }
    })();
    expectRefused(error);
  });

  it('filters what follows a position in either order', () => {
    const position = { createdAt: new Date(5), id: 'wh_b' };
    expect(afterPosition(undefined, 'ascending')).toEqual({});
    expect(afterPosition(position, 'descending')).toEqual({
      $or: [
        { createdAt: { $lt: position.createdAt } },
        { createdAt: position.createdAt, _id: { $lt: 'wh_b' } },
      ],
    });
  });
});

function expectRefused(error: unknown) {
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({
    code: 'validation_failed',
    details: [
      { path: 'query.cursor', message: 'not a cursor this API gave out' },
    ],
  });
}

describe('pageOf', () => {
  const items = [1, 2, 3, 4].map((id) => ({ id }));
  const list = route('GET', '/v1/things', (ctx) => {
    const limit = Number(ctx.query.limit);
    ctx.body = pageOf(ctx, items.slice(0, limit + 1), limit);
  });

  it('links the next page with the same query and the last id as cursor', async () => {
    await using service = await startTestService([list]);
    const res = await fetch(
      `${service.url}/v1/things?limit=2&status=a&status=b`,
    );
    expect(await res.json()).toEqual([{ id: 1 }, { id: 2 }]);
    expect(res.headers.get('link')).toBe(
      `</v1/things?limit=2&status=a&status=b&cursor=${encodeCursor(2)}>; rel="next"`,
    );
  });

  it('sends no Link on the last page', async () => {
    await using service = await startTestService([list]);
    const res = await fetch(`${service.url}/v1/things?limit=4`);
    expect(await res.json()).toHaveLength(4);
    expect(res.headers.get('link')).toBeNull();
  });

  it('takes the creation time and id of string ids as cursor', async () => {
    const createdAt = '2026-01-02T03:04:05.678Z';
    const timed = ['wh_a', 'wh_b'].map((id) => ({ id, createdAt }));
    await using service = await startTestService([
      route('GET', '/v1/hooks', (ctx) => {
        ctx.body = pageOf(ctx, timed, 1);
      }),
    ]);
    const res = await fetch(`${service.url}/v1/hooks?limit=1`);
    const cursor = encodeCursor({ createdAt: new Date(createdAt), id: 'wh_a' });
    expect(res.headers.get('link')).toBe(
      `</v1/hooks?limit=1&cursor=${cursor}>; rel="next"`,
    );
  });
});
