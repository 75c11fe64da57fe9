import { OpenApiGeneratorV3, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { AppRouter } from '@ts-rest/core';
import type {
  LinksObject,
  OpenAPIObject,
  ParameterObject,
  PathItemObject,
  ResponseObject,
  ServerObject,
} from 'openapi3-ts/oas30';
import { documentInfo } from './document-info.js';
import { operationConfig } from './operation.js';
import { headerComponents } from './responses.js';
import { bearerAuth, bearerAuthName } from './operation.js';
import { tags } from './operation.js';
import { addWebhookCallbacks, registerEventSchemas } from './webhook-callbacks.js';
import { type ContractOperation, contractOperations } from '../contract-operations.js';

export interface GenerateOpenApiOptions {
  /** Where the API is served; the code samples call the first. Default: the local gateway. */
  servers?: [ServerObject, ...ServerObject[]];
}

export const defaultServers: [ServerObject] = [{ url: 'http://127.0.0.1:8080' }];

/** The OpenAPI 3.0.3 document of a contract's public routes. */
export function generateOpenApi(
  contract: AppRouter,
  { servers = defaultServers }: GenerateOpenApiOptions = {},
): OpenAPIObject {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', bearerAuthName, bearerAuth);
  for (const [name, header] of Object.entries(headerComponents)) {
    registry.registerComponent('headers', name, header);
  }
  registerEventSchemas(registry);
  for (const operation of documentedOperations(contract)) {
    registry.registerPath(operationConfig(operation, servers[0].url));
  }
  const document = new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: documentInfo,
    servers,
    tags,
  });
  return addWebhookCallbacks(addCreatedResourceLinks(liftParameterDescriptions(document)));
}

/** The routes the document shows (not the internal ones); keys are operationIds, so unique. */
export function documentedOperations(router: AppRouter): ContractOperation[] {
  const operations = contractOperations(router);
  const seen = new Set<string>();
  for (const { name } of operations) {
    if (seen.has(name)) {
      throw new Error(`[openapi] two routes share the key ${name}`);
    }
    seen.add(name);
  }
  return operations.filter(({ metadata }) => metadata.auth !== 'internal');
}

/** Moves a parameter's description from its schema, where pages do not show it, to itself. */
export function liftParameterDescriptions(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values<PathItemObject>(document.paths)) {
    for (const operation of [item.get, item.put, item.post, item.delete, item.patch]) {
      for (const parameter of (operation?.parameters ?? []) as ParameterObject[]) {
        const schema = parameter.schema as { description?: string } | undefined;
        if (parameter.description === undefined && schema?.description !== undefined) {
          parameter.description = schema.description;
          delete schema.description;
        }
      }
    }
  }
  return document;
}

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

/** The committed document, `packages/contract/openapi.json` (the same path from `src/` and `dist/`). */
export const openApiJsonUrl = new URL('../../openapi.json', import.meta.url);

/** The document as it is committed: two-space indentation and a trailing newline. */
export function openApiJson(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
