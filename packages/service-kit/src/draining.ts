import type Koa from 'koa';

const draining = new WeakSet<Koa>();

/** From now on the app's `/ready` answers 503: load balancers take it out of rotation. */
export function startDraining(app: Koa): void {
  draining.add(app);
}

export function isDraining(app: Koa): boolean {
  return draining.has(app);
}
