import { contract, routeMetadata, type RouteMetadata } from '@petstore/contract';

/** A route of the contract, as ts-rest declares it. */
type AppRoute = Parameters<typeof routeMetadata>[0];

export interface ContractRoute {
  /** The route's key, e.g. `createPet`. */
  name: string;
  method: string;
  /** With ts-rest's `:param` placeholders, e.g. `/v1/pets/:petId`. */
  path: string;
  metadata: RouteMetadata;
}

/** Every operation of the public contract, in contract order. */
export function contractRoutes(): ContractRoute[] {
  return Object.values(contract).flatMap((router) =>
    Object.entries(router as Record<string, AppRoute>).map(([name, route]) => ({
      name,
      method: route.method,
      path: route.path,
      metadata: routeMetadata(route),
    })),
  );
}

/** `path` with each `:param` replaced by its value. */
export function fillPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:(\w+)/g, (_placeholder, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${path}`);
    return encodeURIComponent(String(value));
  });
}
