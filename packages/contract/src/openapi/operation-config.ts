import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { codeSamples } from './code-samples/code-samples.js';
import type { ContractOperation } from '../contract-operations.js';
import { operationExtensions } from './operation-extensions.js';
import { operationRequest } from './operation-request.js';
import { operationResponses } from './operation-responses.js';
import { toOpenApiPath } from './openapi-path.js';
import { operationSecurity } from './security.js';
import { tagOf } from './tags.js';

/** The OpenAPI operation of a contract route, as zod-to-openapi registers it. */
export function operationConfig(operation: ContractOperation, serverUrl: string): RouteConfig {
  const { route, metadata, name } = operation;
  const description = operationDescription(operation);
  return {
    method: route.method.toLowerCase() as RouteConfig['method'],
    path: toOpenApiPath(route.path),
    operationId: name,
    tags: [tagOf(operation.group)],
    ...(route.summary === undefined ? {} : { summary: route.summary }),
    ...(description === undefined ? {} : { description }),
    ...(route.deprecated === true ? { deprecated: true } : {}),
    security: operationSecurity(metadata),
    request: operationRequest(route),
    responses: operationResponses(operation),
    ...operationExtensions(metadata),
    'x-codeSamples': codeSamples(operation, serverUrl),
  };
}

function operationDescription({ route, metadata }: ContractOperation): string | undefined {
  const parts = [
    route.description,
    metadata.role === 'admin'
      ? 'Needs an admin key; a customer key gets 403 `forbidden`.'
      : undefined,
    metadata.sunset === undefined
      ? undefined
      : `Deprecated: answers 410 \`gone\` from ${metadata.sunset} on.`,
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? undefined : parts.join('\n\n');
}
