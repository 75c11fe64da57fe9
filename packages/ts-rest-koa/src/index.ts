export { createKoaRouter, type KoaRouter, type KoaRouterOptions } from './create-koa-router.js';
export type {
  RouteHandler,
  RouteHandlerArgs,
  RouteResponse,
  RouterImplementation,
} from './route-handler.js';
export {
  MethodNotAllowedError,
  RequestValidationError,
  ResponseValidationError,
  type ValidationIssue,
} from './errors.js';
