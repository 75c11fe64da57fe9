export { createKoaRouter, routeHandlers } from './create-koa-router.js';
export { addRoute, contractRouter } from './contract-router.js';
export type { RouterImplementation } from './route-handler.js';
export {
  MethodNotAllowedError,
  RequestValidationError,
  ResponseValidationError,
} from './errors.js';
