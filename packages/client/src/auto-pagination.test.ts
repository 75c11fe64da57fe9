import { describe, expect, it } from 'vitest';
import { nextCursorOf } from './auto-pagination.js';
import { startServer, type Reply } from './test-support/test-server.js';
import { testClient } from './test-support/test-client.js';

const pets = (...ids: number[]) =>
  ids.map((id) => ({
    id,
    name: `Pet ${id}`,
    categoryId: 1,
    status: 'available',
  }));

/** Page `page` (from 0) of three pages of two pets, linked as the API links them. */
function petsPage(page: number): Reply {
  const link = (next: number) => ({
    link: `</v1/pets?status=available&limit=2&cursor=c${next}>; rel="next"`,
  });
  return {
    status: 200,
    headers: {
      'x-request-id': `req-${page}`,
      ...(page < 2 ? link(page + 1) : {}),
    },
    body: pets(page * 2 + 1, page * 2 + 2),
  };
}

/** The three pages, answered in the order they are asked for. */
const threePages = [petsPage(0), petsPage(1), petsPage(2)] as const;

describe('lists', () => {
  it('iterate every page, asking for each with the cursor of the Link header', async () => {
    await using server = await startServer(...threePages);
    const { client } = testClient(server.baseUrl);

    const ids: number[] = [];
    for await (const pet of client.pets.list({ status: 'available', limit: 2 }))
      ids.push(pet.id);

    expect(ids).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await server.received()).map((request) => request.url)).toEqual([
      '/v2/pets?status=available&limit=2',
      '/v2/pets?status=available&limit=2&cursor=c1',
      '/v2/pets?status=available&limit=2&cursor=c2',
    ]);
  });

  it('read a page only when the items before it are used up', async () => {
    await using server = await startServer(...threePages);
    const { client } = testClient(server.baseUrl);

    for await (const pet of client.pets.list()) {
      expect(pet.id).toBe(1);
      break;
    }

    expect(await server.received()).toHaveLength(1);
  });

  it('give one page at a time with firstPage and nextPage', async () => {
    await using server = await startServer(...threePages);
    const { client } = testClient(server.baseUrl);

    const first = await client.pets.list({ limit: 2 }).firstPage();
    expect(first).toMatchObject({
      data: pets(1, 2),
      requestId: 'req-0',
      nextCursor: 'c1',
    });
    const second = await first.nextPage();
    const third = await second?.nextPage();
    expect(third).toMatchObject({
      data: pets(5, 6),
      requestId: 'req-2',
      nextCursor: undefined,
    });
    await expect(third?.nextPage()).resolves.toBeUndefined();
    expect((await server.received()).map((request) => request.url)).toEqual([
      '/v2/pets?limit=2',
      '/v2/pets?limit=2&cursor=c1',
      '/v2/pets?limit=2&cursor=c2',
    ]);
  });

  it('repeat a list parameter for each of its values', async () => {
    await using server = await startServer({ status: 200, body: [] });
    const { client } = testClient(server.baseUrl);

    await client.pets
      .list({ status: ['available', 'pending'], categoryId: 3 })
      .firstPage();
    await client.orders.list({ complete: false }).firstPage();

    expect((await server.received()).map((request) => request.url)).toEqual([
      '/v2/pets?status=available&status=pending&categoryId=3',
      '/v2/store/orders?complete=false',
    ]);
  });
});

describe('nextCursorOf', () => {
  it('finds the next link among others', () => {
    const link =
      '</docs#tag/pets>; rel="deprecation"; type="text/html", </v1/pets?cursor=eyJpZCI6MjB9>; rel="next"';
    expect(nextCursorOf(link)).toBe('eyJpZCI6MjB9');
  });

  it('gives undefined without a next link', () => {
    expect(nextCursorOf(null)).toBeUndefined();
    expect(nextCursorOf('</v1/pets?cursor=a>; rel="prev"')).toBeUndefined();
  });
});
