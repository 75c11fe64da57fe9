import type { Logger } from './logger.js';

// What the service-kit middleware adds to every Koa context; loaded with the package index.
declare module 'koa' {
  interface ExtendableContext {
    requestId: string;
    log: Logger;
  }

  interface Request {
    body?: unknown;
  }
}
