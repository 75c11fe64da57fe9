import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';

export interface NamedRoute {
  /** The route's key, e.g. `listPets`. */
  name: string;
  route: AppRoute;
}

/** Every route of a (nested) router, in declaration order. */
export function contractRoutes(router: AppRouter): NamedRoute[] {
  return Object.entries(router).flatMap(([name, entry]) =>
    isAppRoute(entry) ? [{ name, route: entry }] : contractRoutes(entry),
  );
}
