import Koa from 'koa';
import type { Router } from '@koa/router';
import { errorBody } from './error-body.js';
import { jsonBody } from './json-body.js';
import { routeNotFound } from './route-not-found.js';

/** A service-shaped app around one router: errors, body parser, routes, then the 404 fallback. */
export function createTestApp(router: Router): Koa {
  const app = new Koa();
  app.use(errorBody);
  app.use(jsonBody);
  app.use(router.routes());
  app.use(routeNotFound);
  return app;
}
