import { internalHeaders, Replicas } from '@petstore/service-kit';
import { Pool } from 'undici';

/** The services behind the gateway, as the contract's route metadata names them. */
export type ServiceName = 'pets' | 'store';

/**
 * Keep-alive connections to each replica of a service, taken in turn; a replica that refused a
 * connection or answered `Connection: close` (draining) gets none for a while if another can.
 */
export class Upstream extends Replicas<Pool> {
  constructor(
    readonly name: ServiceName,
    pools: Pool[],
  ) {
    super(pools);
  }
}

export type Upstreams = Record<ServiceName, Upstream>;

const CONNECTIONS_PER_REPLICA = 128;
/** Shorter than a service drains (SHUTDOWN_DRAIN_MS): no request goes on a connection it closes. */
const IDLE_CONNECTION_MS = 1_000;

export function createUpstreams(
  services: Record<ServiceName, string[]>,
  timeoutMs: number,
): Upstreams {
  const options = {
    connections: CONNECTIONS_PER_REPLICA,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connectTimeout: Math.min(timeoutMs, 10_000),
    keepAliveTimeout: IDLE_CONNECTION_MS,
    keepAliveMaxTimeout: IDLE_CONNECTION_MS,
  };
  const connect = (name: ServiceName) =>
    new Upstream(
      name,
      services[name].map((url) => new Pool(url, options)),
    );
  return { pets: connect('pets'), store: connect('store') };
}

export async function closeUpstreams({ pets, store }: Upstreams) {
  await Promise.all([...pets.all, ...store.all].map((pool) => pool.close()));
}

export async function upstreamReady(
  upstream: Upstream,
  internalToken: string,
  timeoutMs: number,
): Promise<void> {
  const response = await upstream.pick().request({
    path: '/ready',
    method: 'GET',
    headers: { [internalHeaders.token]: internalToken },
    signal: AbortSignal.timeout(timeoutMs),
  });
  await response.body.dump();
  if (response.statusCode !== 200) {
    throw new Error(
      `[gateway] ${upstream.name} /ready answered ${response.statusCode}`,
    );
  }
}
