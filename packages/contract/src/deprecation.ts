/** When `GET /v1/pets/{petId}` was deprecated, unless a service is told otherwise. */
export const getPetDeprecatedAt = '2026-01-01T00:00:00Z';

/** Where the gateway's API reference explains the deprecation of `GET /v1/pets/{petId}`. */
export const getPetDocumentation = '/docs#tag/pets/GET/v1/pets/{petId}';

export interface DeprecationPolicy {
  /** When the operation was deprecated: `Deprecation: @<unix seconds>` (RFC 9745). */
  deprecatedAt: Date;
  /** When it stops working, then answering 410 `gone`: `Sunset: <HTTP-date>` (RFC 8594). */
  sunsetAt: Date;
  /** Where the deprecation is explained, relative to the gateway that serves `/docs`. */
  documentation: string;
}

/** The headers of every response of a deprecated operation, errors and the gateway's included. */
export function deprecationHeaders({
  deprecatedAt,
  sunsetAt,
  documentation,
}: DeprecationPolicy): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(deprecatedAt.getTime() / 1000)}`,
    Sunset: sunsetAt.toUTCString(),
    Link: `<${documentation}>; rel="deprecation"; type="text/html"`,
  };
}
