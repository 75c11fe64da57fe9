import {
  OpenApiGeneratorV3,
  OpenAPIRegistry,
} from '@asteasolutions/zod-to-openapi';
import type { AppRouter } from '@ts-rest/core';
import type { OpenAPIObject, ServerObject } from 'openapi3-ts/oas30';
import {
  type ContractOperation,
  contractOperations,
  operationIdOf,
} from '../contract-operations.js';
import { documentInfo } from './document-info.js';
import {
  bearerAuth,
  bearerAuthName,
  operationConfig,
  tags,
} from './operation.js';
import { tagGroups } from './renderer-extensions.js';
import { headerComponents } from './responses.js';
import { finishDocument } from './schema-examples.js';
import { eventSchemas } from './webhook-callbacks.js';

export interface GenerateOpenApiOptions {
  /** Where the API is served; the code samples call the first. Default: the local gateway. */
  servers?: [ServerObject, ...ServerObject[]];
}

export function generateOpenApi(
  contract: AppRouter,
  { servers = [{ url: 'http://127.0.0.1:8080' }] }: GenerateOpenApiOptions = {},
): OpenAPIObject {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', bearerAuthName, bearerAuth);
  for (const [name, header] of Object.entries(headerComponents)) {
    registry.registerComponent('headers', name, header);
  }
  for (const [name, schema] of Object.entries(eventSchemas))
    registry.register(name, schema);
  const operations = documentedOperations(contract);
  for (const operation of operations) {
    registry.registerPath(
      operationConfig(operation, operations, servers[0].url),
    );
  }
  const document = new OpenApiGeneratorV3(
    registry.definitions,
  ).generateDocument({
    openapi: '3.0.3',
    info: documentInfo,
    servers,
    tags,
    'x-tagGroups': tagGroups,
  });
  finishDocument(document);
  return document;
}

/** The routes the document shows (not the internal ones); their operationIds are unique. */
export function documentedOperations(router: AppRouter): ContractOperation[] {
  const operations = contractOperations(router);
  const ids = operations.map(operationIdOf);
  const shared = ids.find((id, index) => ids.indexOf(id) !== index);
  if (shared !== undefined)
    throw new Error(`[openapi] two routes share the operationId ${shared}`);
  return operations.filter(({ metadata }) => metadata.auth !== 'internal');
}

/** The committed document, `packages/contract/openapi.json` (the same path from `src/` and `dist/`). */
export const openApiJsonUrl = new URL('../../openapi.json', import.meta.url);

/** The document as it is committed: two-space indentation and a trailing newline. */
export function openApiJson(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
