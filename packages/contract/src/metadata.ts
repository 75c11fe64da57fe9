import type { AppRoute } from '@ts-rest/core';

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

/** The metadata of a contract route (every route has one; a route without it is a contract bug). */
export function routeMetadata(route: AppRoute): RouteMetadata {
  const metadata = route.metadata as RouteMetadata | undefined;
  if (!metadata?.service || !metadata.auth) {
    throw new Error(`[contract] ${route.method} ${route.path} has no route metadata`);
  }
  return metadata;
}
