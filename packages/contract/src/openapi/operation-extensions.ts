import type { RouteMetadata } from '../metadata.js';

/** The `x-` extensions an operation's metadata asks for. */
export function operationExtensions(metadata: RouteMetadata): Record<`x-${string}`, unknown> {
  return {
    ...(metadata.stability === undefined ? {} : { 'x-stability': metadata.stability }),
    ...(metadata.sunset === undefined ? {} : { 'x-sunset': metadata.sunset }),
    ...(metadata.hideTryItPanel === true ? { 'x-hideTryItPanel': true } : {}),
  };
}
