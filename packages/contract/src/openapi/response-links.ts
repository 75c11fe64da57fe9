import type { LinksObject, OpenAPIObject, PathItemObject, ResponseObject } from 'openapi3-ts/oas30';

const methods = ['get', 'put', 'patch', 'delete'] as const;

/** Links from what a `POST` creates to the operations on it, by the `id` of its 201/202 body. */
export function addCreatedResourceLinks(document: OpenAPIObject): OpenAPIObject {
  const paths = Object.entries<PathItemObject>(document.paths);
  for (const [path, item] of paths) {
    const responses = item.post?.responses;
    // 202: a message is accepted, not yet delivered, but it can be read by its id at once.
    const created = (responses?.['201'] ?? responses?.['202']) as ResponseObject | undefined;
    if (created === undefined) continue;
    const links: LinksObject = {};
    for (const [childPath, child] of paths) {
      const parameter = /^\/\{([A-Za-z]+)\}$/.exec(childPath.slice(path.length))?.[1];
      if (!childPath.startsWith(path) || parameter === undefined) continue;
      for (const method of methods) {
        const operationId = child[method]?.operationId;
        if (operationId === undefined) continue;
        links[operationId] = {
          operationId,
          parameters: { [parameter]: '$response.body#/id' },
          description: `The \`id\` of the new resource as \`${parameter}\`.`,
        };
      }
    }
    if (Object.keys(links).length > 0) created.links = links;
  }
  return document;
}
