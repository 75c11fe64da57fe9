/** The package's version, written in at build time from package.json. */
declare const __CLIENT_VERSION__: string;

export const VERSION = __CLIENT_VERSION__;

/** `petstore-client/1.0.0 node/20.19.0`; without the runtime part where there is no `process`. */
export function userAgent(): string {
  const node = typeof process === 'undefined' ? undefined : process.versions?.node;
  return `petstore-client/${VERSION}${node ? ` node/${node}` : ''}`;
}
