import {
  checkZodSchema,
  isAppRouteNoBody,
  isAppRouteOtherResponse,
  isAppRouteResponse,
  type AppRoute,
} from '@ts-rest/core';
import { ResponseValidationError } from './errors.js';
import { toValidationIssues } from './zod-issues.js';

export interface HandlerResponse {
  status: number;
  body?: unknown;
}

function describeRoute(route: AppRoute): string {
  return `${route.method} ${route.path}`;
}

/** A handler must answer `{ status, body }`; anything else is a bug in the service. */
export function toHandlerResponse(route: AppRoute, result: unknown): HandlerResponse {
  if (!isAppRouteResponse(result)) {
    throw new ResponseValidationError(describeRoute(route), [
      { path: 'response', message: 'the handler did not return { status, body }' },
    ]);
  }
  return result;
}

/**
 * Checks the status is declared and the body parses with its schema, and returns the parsed body
 * so properties the contract does not declare never leave the service.
 */
export function validateResponse(route: AppRoute, response: HandlerResponse): HandlerResponse {
  const { status, body } = response;
  const declared = route.responses[status];
  if (declared === undefined) {
    throw new ResponseValidationError(describeRoute(route), [
      { path: 'status', message: `status ${status} is not declared by the contract` },
    ]);
  }
  if (isAppRouteNoBody(declared)) {
    if (body !== undefined) {
      throw new ResponseValidationError(describeRoute(route), [
        { path: 'body', message: `status ${status} is declared without a body` },
      ]);
    }
    return { status };
  }
  const schema = isAppRouteOtherResponse(declared) ? declared.body : declared;
  const result = checkZodSchema(body, schema);
  if (!result.success) {
    throw new ResponseValidationError(
      describeRoute(route),
      toValidationIssues('body', result.error),
    );
  }
  return { status, body: result.data };
}
