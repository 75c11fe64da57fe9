/** When `GET /v1/pets/{petId}` was deprecated, unless a service is told otherwise. */
export const getPetDeprecatedAt = '2026-01-01T00:00:00Z';

/** Where the gateway's API reference explains the deprecation of `GET /v1/pets/{petId}`. */
export const getPetDocumentation = '/docs#tag/pets-v1/GET/v1/pets/{petId}';

export interface DeprecationPolicy {
  /** When the operation was deprecated: `Deprecation: @<unix seconds>` (RFC 9745). */
  deprecatedAt: Date;
  /** When it stops working, then answering 410 `gone`: `Sunset: <HTTP-date>` (RFC 8594). */
  sunsetAt: Date;
  /** Where the deprecation is explained, relative to the gateway that serves `/docs`. */
  documentation: string;
}

/**
 * The headers of every response of a deprecated operation, errors and the gateway's included;
 * `successor` is the address of the same request in the current version (`/v2/pets/7`).
 */
export function deprecationHeaders(
  { deprecatedAt, sunsetAt, documentation }: DeprecationPolicy,
  successor: string,
): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(deprecatedAt.getTime() / 1000)}`,
    Sunset: sunsetAt.toUTCString(),
    Link: `<${documentation}>; rel="deprecation"; type="text/html", <${successor}>; rel="successor-version"`,
  };
}

/**
 * The successor of a deprecated operation for one request: its path (`metadata.successor`) with
 * the request's path parameters, encoded.
 */
export function successorPath(
  successor: string,
  params: Record<string, string>,
): string {
  return successor.replace(
    /:([A-Za-z_][A-Za-z0-9_]*)/g,
    (_match, name: string) => encodeURIComponent(params[name] ?? ''),
  );
}
