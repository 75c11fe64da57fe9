export {};

declare module 'koa' {
  interface ExtendableContext {
    /** The contract route the request matched, e.g. `/v1/pets/:petId`: for metrics and spans. */
    routeTemplate?: string;
  }
}
