import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { ContractOperation } from '../contract-operations.js';
import { reasonPhrase } from './http-status.js';
import { responseContent, routeResponses } from './response-content.js';
import { responseHeaders } from './response-headers.js';

/** Every status the contract lists for a route, with its content and headers. */
export function operationResponses(operation: ContractOperation): RouteConfig['responses'] {
  return Object.fromEntries(
    routeResponses(operation.route).map(([status, response]) => {
      const content = responseContent(response);
      return [
        String(status),
        {
          description: reasonPhrase(status),
          headers: responseHeaders(operation, status, content),
          ...(content === undefined
            ? {}
            : { content: { [content.contentType]: { schema: content.schema ?? {} } } }),
        },
      ];
    }),
  );
}
