import { type AppRoute, type AppRouter, isAppRoute } from '@ts-rest/core';
import {
  type ApiVersionName,
  currentVersion,
  isApiVersionName,
} from './api-version.js';
import { lengthInCodePoints } from './text.js';
import { z } from './zod.js';

/** What the gateway and the document need of a route beyond its shapes: its `metadata`. */
export interface RouteMetadata {
  /** The process that answers the operation; the gateway routes by it. */
  service: 'gateway' | 'pets' | 'store';
  /** `key`: needs `Authorization: Bearer <API key>`; `internal`: service-to-service only. */
  auth: 'none' | 'key' | 'internal';
  /** The role an operation needs beyond a valid key; absent: any account. */
  role?: 'admin';
  stability?: 'experimental' | 'beta';
  /** With `deprecated: true` on the route: when it stops working (ISO 8601), `x-sunset`. */
  sunset?: string;
  /**
   * With `deprecated: true`: the path of the operation that replaces it, its twin in the current
   * version (`/v2/pets/:petId`); set when the versions are derived, never written by hand.
   */
  successor?: string;
  hideTryItPanel?: boolean;
}

/** `method` and `path` from `'GET /pets/:petId'`, with the route's metadata. */
export function at<M extends AppRoute['method'], P extends string>(
  route: `${M} ${P}`,
  metadata: RouteMetadata,
): { method: M; path: P; metadata: RouteMetadata } {
  const [method, path] = route.split(' ') as [M, P];
  return { method, path, metadata };
}

const IdempotencyKeySchema = lengthInCodePoints(z.string(), {
  min: 1,
  max: 255,
}).openapi({
  description:
    'Retrying with the same key and body returns the first answer again, with `Idempotent-Replayed: true`, and creates nothing more; the same key with another body or operation is 422 `idempotency_key_reused`, and while the first is still in progress, a retry is 409 `conflict`. Keys are kept at least 24 hours.',
  example: '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f',
});

/** A public `POST` at `path`: `at()` with the optional `Idempotency-Key` it honours. */
export function post<P extends string>(path: P, metadata: RouteMetadata) {
  return {
    ...at<'POST', P>(`POST ${path}`, metadata),
    headers: z.object({ 'idempotency-key': IdempotencyKeySchema.optional() }),
  };
}

/** The metadata of a contract route (every route has one; a route without it is a contract bug). */
export function routeMetadata(route: AppRoute): RouteMetadata {
  const metadata = route.metadata as RouteMetadata | undefined;
  if (!metadata?.service || !metadata.auth) {
    throw new Error(
      `[contract] ${route.method} ${route.path} has no route metadata`,
    );
  }
  return metadata;
}

/** A route of a contract, with what the gateway and the document need to place it. */
export interface ContractOperation {
  /** The route's key in its router, e.g. `listPets`: the document's operationId. */
  name: string;
  /** The resource's router key the route sits under, e.g. `pets` (below a version key). */
  group: string;
  /** The version the route belongs to (`contract.v1…`); none for meta and internal routes. */
  version?: ApiVersionName;
  route: AppRoute;
  metadata: RouteMetadata;
}

/**
 * Every route of a (nested) router, internal ones included, in declaration order. A top-level key
 * that names a version (`v1`, `v2`) gives its routes that version, and the key below it the group.
 */
export function contractOperations(router: AppRouter): ContractOperation[] {
  return Object.entries(router).flatMap(([key, entry]) =>
    isApiVersionName(key) && !isAppRoute(entry)
      ? Object.entries(entry).flatMap(([group, child]) =>
          collect(child, group, group, key),
        )
      : collect(entry, key, key),
  );
}

function collect(
  entry: AppRouter | AppRoute,
  name: string,
  group: string,
  version?: ApiVersionName,
): ContractOperation[] {
  if (!isAppRoute(entry)) {
    return Object.entries(entry).flatMap(([key, child]) =>
      collect(child, key, group, version),
    );
  }
  // Read on use, so a router of routes without metadata can still be matched (ts-rest-koa).
  return [
    {
      name,
      group,
      version,
      route: entry,
      get metadata() {
        return routeMetadata(entry);
      },
    },
  ];
}

/** `/v1/pets/:petId` → `/v1/pets/{petId}`: a path as the document and messages write it. */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

/**
 * The operationId: the route's key in the current version and at the root (`getPet`), with the
 * version after it in an older one (`getPetV1`), so that both versions fit one document.
 */
export function operationIdOf({ name, version }: ContractOperation): string {
  return version === undefined || version === currentVersion
    ? name
    : `${name}${version.toUpperCase()}`;
}
