import Router, { RouterEvents, type RouterMiddleware } from '@koa/router';
import type { ContractOperation } from '@petstore/contract';
import type { DefaultState, Middleware } from 'koa';
import { MethodNotAllowedError } from './errors.js';

/** What path-to-regexp 8 reads as syntax rather than text: escaped in literal segments. */
const RESERVED = /[()[\]{}?+*!:\\]/g;
const PLAIN_NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * A contract path in the syntax of path-to-regexp 8, which @koa/router compiles: a `:name` segment
 * is one parameter, ts-rest's optional `/:name?` becomes `{/:name}`, and literal segments are
 * matched as written.
 */
export function routerPath(path: string): string {
  return path.replace(/\/([^/]*)/g, (_, segment: string) => {
    if (!segment.startsWith(':'))
      return `/${segment.replace(RESERVED, '\\$&')}`;
    const optional = segment.endsWith('?');
    const name = segment.slice(1, optional ? -1 : undefined);
    const parameter = `/:${PLAIN_NAME.test(name) ? name : JSON.stringify(name)}`;
    return optional ? `{${parameter}}` : parameter;
  });
}

/**
 * A @koa/router Router that matches as the contract means its paths: case and trailing slash
 * count (`sensitive`, `strict`). A path it knows, asked with a method none of its routes serves,
 * is 405 `MethodNotAllowedError` (`OPTIONS`: 204) with `Allow`; an unknown path goes on to the next
 * middleware. Routes are tried in the order they were added, and the first one answers.
 */
export function contractRouter<TState = DefaultState>(): Router<TState> {
  const router = new Router<TState>({ sensitive: true, strict: true });
  router.on(
    RouterEvents.NotFound,
    async function answerOtherMethods(ctx, next) {
      // `Allow`: every method of the routes matching the path (the router gives each `GET` route
      // `HEAD` too) and `OPTIONS`, sorted. Set before throwing, so it survives an error middleware
      // that only sets status and body; the error's `headers` carry it to Koa's own error handler.
      const methods = (ctx.matched ?? []).flatMap((layer) => layer.methods);
      if (methods.length === 0) {
        await next();
        return;
      }
      const allow = [...new Set(['OPTIONS', ...methods])].sort();
      ctx.set('Allow', allow.join(', '));
      if (ctx.method !== 'OPTIONS')
        throw new MethodNotAllowedError(ctx.method, allow);
      ctx.status = 204;
    },
  );
  return router;
}

/**
 * Adds an operation to a contract router: its method and path, named after the operation, with
 * `middleware` after a first step that sets `ctx.routeTemplate` (the contract path, for logs,
 * metrics and spans).
 */
export function addRoute<TState>(
  router: Router<TState>,
  { name, route }: ContractOperation,
  middleware: (Middleware<TState> | RouterMiddleware<TState>)[],
): void {
  const matched: Middleware<TState> = async function routeTemplate(ctx, next) {
    ctx.routeTemplate = route.path;
    await next();
  };
  router.register(
    routerPath(route.path),
    [route.method],
    [matched, ...middleware],
    { name },
  );
}
