import { internalHeaders } from '@petstore/service-kit';
import { BalancedPool, Pool, type Dispatcher } from 'undici';
import type { Config } from '../config.js';

/** The services behind the gateway, by the name the contract's route metadata gives them. */
export type ServiceName = keyof Config['services'];

/** One service behind the gateway: keep-alive connections to its replicas. */
export interface Upstream {
  name: ServiceName;
  pool: Dispatcher;
}

export type Upstreams = Record<ServiceName, Upstream>;

/** Connections kept per replica; a slow answer holds one, the others keep flowing. */
const CONNECTIONS_PER_REPLICA = 128;

/**
 * A pool per service: one address (a Kubernetes Service, a load balancer) gets a plain pool; a
 * list of replicas gets undici's BalancedPool, which spreads requests over them and sends fewer
 * to one that fails.
 */
export function createUpstreams({ services, upstream }: Config): Upstreams {
  const connect = (name: ServiceName): Upstream => {
    const urls = services[name];
    const options = {
      connections: CONNECTIONS_PER_REPLICA,
      headersTimeout: upstream.timeoutMs,
      bodyTimeout: upstream.timeoutMs,
      connectTimeout: Math.min(upstream.timeoutMs, 10_000),
    };
    const [only] = urls;
    return {
      name,
      pool: urls.length === 1 && only ? new Pool(only, options) : new BalancedPool(urls, options),
    };
  };
  return { pets: connect('pets'), store: connect('store') };
}

export async function closeUpstreams(upstreams: Upstreams): Promise<void> {
  await Promise.all(Object.values(upstreams).map(({ pool }) => pool.close()));
}

/** Resolves when the service's `/ready` answers 200 within `timeoutMs`, else rejects. */
export async function upstreamReady(
  { name, pool }: Upstream,
  internalToken: string,
  timeoutMs: number,
): Promise<void> {
  const response = await pool.request({
    path: '/ready',
    method: 'GET',
    headers: { [internalHeaders.token]: internalToken },
    signal: AbortSignal.timeout(timeoutMs),
  });
  await response.body.dump();
  if (response.statusCode !== 200) {
    throw new Error(`[gateway] ${name} /ready answered ${response.statusCode}`);
  }
}
