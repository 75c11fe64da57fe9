import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.js';
import { decodeCursor, encodeCursor, pageOf } from './pagination.js';
import { route, startTestService } from './test-support/test-service.js';

describe('cursors', () => {
  it('round-trips the last id of a page', () => {
    for (const id of [1, 42, Number.MAX_SAFE_INTEGER])
      expect(decodeCursor(encodeCursor(id))).toBe(id);
  });

  it('starts from the beginning without a cursor', () => {
    expect(decodeCursor(undefined)).toBe(0);
  });

  it.each(['', 'abc', encodeCursor(1) + '=', Buffer.from('-1').toString('base64url'), 'MDE'])(
    'rejects %j as 400 validation_failed on query.cursor',
    (cursor) => {
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
    },
  );
});

describe('pageOf', () => {
  const items = [1, 2, 3, 4].map((id) => ({ id }));
  const list = route('GET', '/v1/things', (ctx) => {
    const limit = Number(ctx.query.limit);
    ctx.body = pageOf(ctx, items.slice(0, limit + 1), limit);
  });

  it('links the next page with the same query and the last id as cursor', async () => {
    await using service = await startTestService([list]);
    const res = await fetch(`${service.url}/v1/things?limit=2&status=a&status=b`);
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
});
