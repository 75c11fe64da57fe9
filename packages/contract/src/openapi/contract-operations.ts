import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { routeMetadata, type RouteMetadata } from '../metadata.js';

/** A public route of the contract, with what the document needs to place it. */
export interface ContractOperation {
  /** The route's key in its router, e.g. `listPets`. */
  operationId: string;
  /** The top-level router key the route sits under, e.g. `pets`. */
  group: string;
  route: AppRoute;
  metadata: RouteMetadata;
}

/** Every route of a (nested) router, in declaration order, without the internal ones. */
export function contractOperations(router: AppRouter): ContractOperation[] {
  const operations = Object.entries(router).flatMap(([group, entry]) =>
    collect(group, group, entry),
  );
  const seen = new Set<string>();
  for (const { operationId } of operations) {
    if (seen.has(operationId)) {
      throw new Error(`[openapi] two routes share the key ${operationId}`);
    }
    seen.add(operationId);
  }
  return operations.filter(({ metadata }) => metadata.auth !== 'internal');
}

function collect(group: string, key: string, entry: AppRouter | AppRoute): ContractOperation[] {
  if (isAppRoute(entry)) {
    return [{ operationId: key, group, route: entry, metadata: routeMetadata(entry) }];
  }
  return Object.entries(entry).flatMap(([childKey, child]) => collect(group, childKey, child));
}
