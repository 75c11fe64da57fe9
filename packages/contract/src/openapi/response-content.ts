import {
  isAppRouteNoBody,
  isAppRouteOtherResponse,
  isZodType,
  type AppRoute,
  type AppRouteResponse,
} from '@ts-rest/core';
import type { ZodTypeAny } from 'zod';
import { isSuccess } from './http-status.js';

/** What a response carries: a content type and, when the contract gives one, its schema. */
export interface ResponseContent {
  contentType: string;
  schema?: ZodTypeAny;
}

/** The content of a contract response; undefined for `c.noBody()` and bodiless responses. */
export function responseContent(response: AppRouteResponse): ResponseContent | undefined {
  if (isAppRouteNoBody(response) || response === null) {
    return undefined;
  }
  if (isAppRouteOtherResponse(response)) {
    return {
      contentType: response.contentType,
      ...(isZodType(response.body) ? { schema: response.body } : {}),
    };
  }
  return { contentType: 'application/json', ...(isZodType(response) ? { schema: response } : {}) };
}

/** The contract's responses as [status, response] pairs, in status order. */
export function routeResponses(route: AppRoute): [number, AppRouteResponse][] {
  return Object.entries(route.responses)
    .map(([status, response]): [number, AppRouteResponse] => [Number(status), response])
    .sort(([a], [b]) => a - b);
}

/** The first success response of a route: what a caller normally gets back. */
export function successContent(route: AppRoute): ResponseContent | undefined {
  const success = routeResponses(route).find(([status]) => isSuccess(status));
  return success === undefined ? undefined : responseContent(success[1]);
}
