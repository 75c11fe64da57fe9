/** ts-rest writes an optional parameter `/:id?`; path-to-regexp 8 (used by @koa/router) writes `{/:id}`. */
export function toRouterPath(contractPath: string): string {
  return contractPath.replace(/\/:(\w+)\?/g, '{/:$1}');
}
