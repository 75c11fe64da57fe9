/** The versions of the public API by their path segment, oldest first. */
export const apiVersions = { v1: '1.0.0', v2: '2.0.0' } as const;
export type ApiVersionName = keyof typeof apiVersions;

/** The current version: the one `Location` headers point into and the reference shows first. */
export const currentVersion = 'v2' satisfies ApiVersionName;

/** `API-Version` of the current version, and `info.version` of the document. */
export const apiVersion = apiVersions[currentVersion];

export function isApiVersionName(segment: string): segment is ApiVersionName {
  return Object.hasOwn(apiVersions, segment);
}

/**
 * The `API-Version` of a response to `path`: `1.0.0` under `/v1`, `2.0.0` under `/v2`, and the
 * current version's everywhere else (meta endpoints, unknown paths), as the document there is.
 */
export function apiVersionOf(path: string): string {
  const segment = /^\/([^/]+)/.exec(path)?.[1] ?? '';
  return isApiVersionName(segment) ? apiVersions[segment] : apiVersion;
}
