import { tsRestFetchApi, type ApiFetcher } from '@ts-rest/core';

/**
 * The query string the API reads: an array as a repeated parameter (`status=a&status=b`), where
 * ts-rest would write `status[0]=a&status[1]=b`.
 */
export function toQueryString(query: unknown): string {
  const params = new URLSearchParams();
  if (typeof query === 'object' && query !== null) {
    for (const [name, value] of Object.entries(query)) {
      for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
        if (item !== undefined) {
          params.append(name, String(item));
        }
      }
    }
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** ts-rest's fetch, with the query of the URL written again by `toQueryString`. */
export const fetchWithRepeatedQuery: ApiFetcher = (args) =>
  tsRestFetchApi({
    ...args,
    path: args.path.replace(/\?.*$/s, '') + toQueryString(args.rawQuery),
  });
