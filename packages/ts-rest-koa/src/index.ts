export {
  createKoaRouter,
  routeHandlers,
  type KoaRouterOptions,
  type RouteHandlerOptions,
} from './create-koa-router.js';
export { addRoute, contractRouter } from './contract-router.js';
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
