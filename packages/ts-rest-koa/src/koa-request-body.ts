export {};

declare module 'koa' {
  interface Request {
    /** Set by a body-parsing middleware mounted before the router; the router validates it, never parses it. */
    body?: unknown;
  }
}
