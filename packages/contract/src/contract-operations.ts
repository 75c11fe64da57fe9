import { type AppRoute, type AppRouter, isAppRoute } from '@ts-rest/core';

/** The process that answers an operation; the gateway routes by it. */
export type OwningService = 'gateway' | 'pets' | 'store';

/** What the gateway and the document need of a route beyond its shapes: its `metadata`. */
export interface RouteMetadata {
  service: OwningService;
  /** `key`: needs `Authorization: Bearer <API key>`; `internal`: service-to-service only. */
  auth: 'none' | 'key' | 'internal';
  /** The role an operation needs beyond a valid key; absent: any account. */
  role?: 'admin';
  /** `x-stability` for operations that are not yet stable. */
  stability?: 'experimental' | 'beta';
  /** With `deprecated: true` on the route: when it stops working (ISO 8601), `x-sunset`. */
  sunset?: string;
  /** `x-hideTryItPanel` in the document. */
  hideTryItPanel?: boolean;
}

/** `method` and `path` from `'GET /v1/pets/:petId'`, with the route's metadata. */
export function at<M extends AppRoute['method'], P extends string>(
  route: `${M} ${P}`,
  metadata: RouteMetadata,
): { method: M; path: P; metadata: RouteMetadata } {
  const [method, path] = route.split(' ') as [M, P];
  return { method, path, metadata };
}

/** The metadata of a contract route (every route has one; a route without it is a contract bug). */
export function routeMetadata(route: AppRoute): RouteMetadata {
  const metadata = route.metadata as RouteMetadata | undefined;
  if (!metadata?.service || !metadata.auth) {
    throw new Error(`[contract] ${route.method} ${route.path} has no route metadata`);
  }
  return metadata;
}

/** A route of a contract, with what the gateway and the document need to place it. */
export interface ContractOperation {
  /** The route's key in its router, e.g. `listPets`: the document's operationId. */
  name: string;
  /** The top-level router key the route sits under, e.g. `pets`. */
  group: string;
  route: AppRoute;
  metadata: RouteMetadata;
}

/** Every route of a (nested) router, internal ones included, in declaration order. */
export function contractOperations(router: AppRouter): ContractOperation[] {
  return Object.entries(router).flatMap(([group, entry]) => collect(group, group, entry));
}

function collect(group: string, name: string, entry: AppRouter | AppRoute): ContractOperation[] {
  if (isAppRoute(entry)) {
    // Read on use, so a router of routes without metadata can still be matched (ts-rest-koa).
    return [
      {
        name,
        group,
        route: entry,
        get metadata() {
          return routeMetadata(entry);
        },
      },
    ];
  }
  return Object.entries(entry).flatMap(([key, child]) => collect(group, key, child));
}
