import { tsRestFetchApi, type ApiFetcher } from '@ts-rest/core';

/** Arrays as repeated parameters (`status=a&status=b`), not ts-rest's `status[0]=a`. */
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
