/** The package's version, written in at build time from package.json. */
declare const __CLIENT_VERSION__: string;

export const VERSION = __CLIENT_VERSION__;

/**
 * `petstore-client/1.0.0 node/24.1.0` where `process.versions.node` tells the version (Node, and
 * Deno and Bun, which say which Node they match). Elsewhere none: a browser sends its own and
 * ignores or refuses the header, and sending it would make every cross-origin request ask the
 * API to allow one more header.
 */
export function userAgent(): string | undefined {
  const node =
    typeof process === 'undefined' ? undefined : process.versions?.node;
  return node ? `petstore-client/${VERSION} node/${node}` : undefined;
}
