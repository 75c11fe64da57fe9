import { ApiPromise } from './api-promise.js';
import { unexpectedBody } from './errors.js';
import {
  describe,
  type RequestOptions,
  type RequestSender,
  type RequestSpec,
} from './request-sender.js';

/** One page of a list. */
export interface Page<T> {
  data: T[];
  requestId: string;
  /** The cursor of the next page, from the `Link: <…>; rel="next"` header; none on the last. */
  nextCursor?: string;
  /** The next page, or undefined after the last. */
  nextPage(): Promise<Page<T> | undefined>;
}

/**
 * A list operation. `for await (const item of list)` reads every page as it goes (each only when
 * the items before it are used up); `firstPage()` reads one.
 */
export interface List<T> extends AsyncIterable<T> {
  /** The first page; `.withResponse()` gives its response too. */
  firstPage(): ApiPromise<Page<T>>;
}

/** The `cursor` of the `rel="next"` link of a `Link` header. */
export function nextCursorOf(link: string | null): string | undefined {
  for (const [, target, params] of (link ?? '').matchAll(/<([^>]*)>([^,]*)/g)) {
    const rel = /;\s*rel="?([^";]*)/i.exec(params ?? '')?.[1] ?? '';
    if (rel.split(/\s+/).includes('next')) {
      return (
        new URL(target ?? '', 'http://link.invalid').searchParams.get(
          'cursor',
        ) ?? undefined
      );
    }
  }
  return undefined;
}

export function list<T>(
  sender: RequestSender,
  spec: Omit<RequestSpec, 'method'>,
  options?: RequestOptions,
): List<T> {
  const page = (cursor: string | undefined): ApiPromise<Page<T>> => {
    const query = cursor === undefined ? spec.query : { ...spec.query, cursor };
    const request = { ...spec, method: 'GET' as const, query };
    return new ApiPromise(
      sender.send(request, options).then(({ response, body, requestId }) => {
        if (!Array.isArray(body))
          throw unexpectedBody(describe(request), response, requestId);
        const nextCursor = nextCursorOf(response.headers.get('link'));
        const nextPage = () =>
          nextCursor === undefined
            ? Promise.resolve(undefined)
            : page(nextCursor);
        return {
          data: { data: body as T[], requestId, nextCursor, nextPage },
          response,
        };
      }),
    );
  };
  return {
    firstPage: () => page(undefined),
    async *[Symbol.asyncIterator]() {
      let current: Page<T> | undefined = await page(undefined);
      for (; current; current = await current.nextPage()) {
        yield* current.data;
      }
    },
  };
}
