import type { Logger } from './logger.js';

// What the service-kit middleware adds to every Koa context; loaded with the package index.
declare module 'koa' {
  interface ExtendableContext {
    /** The client's `X-Request-Id` when it is sane, else a new UUID; set by the first middleware. */
    requestId: string;
    /** The service logger bound to this request: every line carries `requestId`. */
    log: Logger;
  }

  interface Request {
    /** The parsed JSON body; `undefined` when the request has none; set by the JSON body middleware. */
    body?: unknown;
  }
}
