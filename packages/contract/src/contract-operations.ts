import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { routeMetadata, type RouteMetadata } from './metadata.js';

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
