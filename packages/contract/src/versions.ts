import { type AppRoute, type AppRouter, isAppRoute } from '@ts-rest/core';
import { currentVersion } from './api-version.js';
import { routeMetadata, toOpenApiPath } from './contract-operations.js';

/** What a deprecated operation answers from its sunset on (410 `gone`): not in the current version. */
const GONE = 410;

/**
 * A route at `prefix` + its path, its type exactly its declared statuses (ts-rest's
 * `strictStatusCodes`); in the current version, a deprecated one is not.
 */
type Versioned<
  TRoute extends AppRoute,
  TPrefix extends string,
  TCurrent extends boolean,
> = Omit<
  TRoute,
  'path' | (TCurrent extends true ? 'deprecated' | 'responses' : never)
> & {
  path: `${TPrefix}${TRoute['path']}`;
  strictStatusCodes: true;
} & (TCurrent extends true
    ? { responses: Omit<TRoute['responses'], typeof GONE> }
    : unknown);

export type VersionedRouter<
  TRouter,
  TPrefix extends string,
  TCurrent extends boolean,
> = {
  [K in keyof TRouter]: TRouter[K] extends AppRoute
    ? Versioned<TRouter[K], TPrefix, TCurrent>
    : VersionedRouter<TRouter[K], TPrefix, TCurrent>;
};

function mapRoutes(
  router: AppRouter,
  map: (route: AppRoute) => AppRoute,
): AppRouter {
  return Object.fromEntries(
    Object.entries(router).map(([key, entry]) => [
      key,
      isAppRoute(entry)
        ? { ...map(entry), strictStatusCodes: true }
        : mapRoutes(entry, map),
    ]),
  );
}

/**
 * The current version, `/v2`: every operation, none deprecated. An operation the definition marks
 * deprecated is deprecated in the older versions only; here it is their successor, with no sunset
 * and no 410.
 */
export function currentVersionOf<TRouter extends AppRouter>(
  operations: TRouter,
): VersionedRouter<TRouter, '/v2', true> {
  return mapRoutes(operations, ({ deprecated, ...route }) => {
    const current = { ...route, path: `/${currentVersion}${route.path}` };
    if (deprecated !== true) return current;
    const metadata = { ...routeMetadata(current) };
    delete metadata.sunset;
    const responses = { ...route.responses };
    delete responses[GONE];
    return { ...current, metadata, responses };
  }) as VersionedRouter<TRouter, '/v2', true>;
}

/**
 * `/v1`, the version the seed describes: every operation as defined; a deprecated one names its
 * twin in the current version as its successor, in its metadata and its description.
 */
export function previousVersionOf<TRouter extends AppRouter>(
  operations: TRouter,
): VersionedRouter<TRouter, '/v1', false> {
  return mapRoutes(operations, (route) => {
    const path = `/v1${route.path}`;
    if (route.deprecated !== true) return { ...route, path };
    const successor = `/${currentVersion}${route.path}`;
    const deprecation =
      `Deprecated: its successor is \`${route.method} ${toOpenApiPath(successor)}\`, which answers the same. ` +
      'Every answer here carries `Deprecation`, `Sunset`, a `Link` to the deprecation notice and one to the successor (`rel="successor-version"`).';
    return {
      ...route,
      path,
      description: [route.description, deprecation].filter(Boolean).join(' '),
      metadata: { ...routeMetadata(route), successor },
    };
  }) as VersionedRouter<TRouter, '/v1', false>;
}
