import { isAppRouteOtherResponse, type AppRoute } from '@ts-rest/core';
import type { Context } from 'koa';
import type { HandlerResponse } from './validate-response.js';

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
  ctx.type = 'application/json';
  ctx.body = typeof body === 'string' ? JSON.stringify(body) : body;
}
