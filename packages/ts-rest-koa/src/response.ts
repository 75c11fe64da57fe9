import {
  checkZodSchema,
  isAppRouteNoBody,
  isAppRouteOtherResponse,
  isAppRouteResponse,
  type AppRoute,
} from '@ts-rest/core';
import type { Context } from 'koa';
import {
  ResponseValidationError,
  toValidationIssues,
  type ValidationIssue,
} from './errors.js';

export interface HandlerResponse {
  status: number;
  body?: unknown;
}

const invalid = (route: AppRoute, issues: ValidationIssue[]) =>
  new ResponseValidationError(`${route.method} ${route.path}`, issues);

/** A handler must return `{ status, body }`; anything else is a bug in the service. */
export function toHandlerResponse(
  route: AppRoute,
  result: unknown,
): HandlerResponse {
  if (isAppRouteResponse(result)) return result;
  throw invalid(route, [
    {
      path: 'response',
      message: 'the handler did not return { status, body }',
    },
  ]);
}

/**
 * Checks the status is declared and the body parses with its schema, and returns the parsed body
 * so properties the contract does not declare never leave the service.
 */
export function validateResponse(
  route: AppRoute,
  { status, body }: HandlerResponse,
): HandlerResponse {
  const declared = route.responses[status];
  if (declared === undefined) {
    throw invalid(route, [
      {
        path: 'status',
        message: `status ${status} is not declared by the contract`,
      },
    ]);
  }
  if (isAppRouteNoBody(declared)) {
    if (body === undefined) return { status };
    throw invalid(route, [
      { path: 'body', message: `status ${status} is declared without a body` },
    ]);
  }
  const result = checkZodSchema(
    body,
    isAppRouteOtherResponse(declared) ? declared.body : declared,
  );
  if (!result.success)
    throw invalid(route, toValidationIssues('body', result.error));
  return { status, body: result.data };
}

/** Writes a handler response to Koa: JSON unless the contract declares another content type. */
export function sendResponse(
  ctx: Context,
  route: AppRoute,
  { status, body }: HandlerResponse,
): void {
  if (body === undefined) {
    // An explicit null body makes Koa send nothing while keeping the status set after it.
    ctx.body = null;
    ctx.status = status;
    return;
  }
  ctx.status = status;
  const declared = route.responses[status];
  if (declared !== undefined && isAppRouteOtherResponse(declared)) {
    ctx.type = declared.contentType;
    ctx.body = body;
    return;
  }
  // What `ctx.type = 'application/json'` sets, without looking the type up on every response.
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  ctx.body = typeof body === 'string' ? JSON.stringify(body) : body;
}
