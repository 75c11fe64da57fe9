import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import type { AppRouter } from '@ts-rest/core';
import type { OpenAPIObject, ServerObject } from 'openapi3-ts/oas30';
import { documentedOperations } from './documented-operations.js';
import { documentInfo } from './document-info.js';
import { operationConfig } from './operation-config.js';
import { liftParameterDescriptions } from './parameter-descriptions.js';
import { addCreatedResourceLinks } from './response-links.js';
import { headerComponents } from './response-headers.js';
import { bearerAuth, bearerAuthName } from './security.js';
import { tags } from './tags.js';
import { addWebhookCallbacks, registerEventSchemas } from './webhook-callbacks.js';

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
