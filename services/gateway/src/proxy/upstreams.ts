import { internalHeaders } from '@petstore/service-kit';
import { Pool } from 'undici';
import type { Config } from '../config.js';

/** The services behind the gateway, by the name the contract's route metadata gives them. */
export type ServiceName = keyof Config['services'];

/** One service behind the gateway: a keep-alive connection pool to its origin. */
export interface Upstream {
  name: ServiceName;
  pool: Pool;
}

export type Upstreams = Record<ServiceName, Upstream>;

/** Connections kept per service; a slow answer holds one, the others keep flowing. */
const CONNECTIONS_PER_SERVICE = 128;

export function createUpstreams({ services, upstream }: Config): Upstreams {
  const connect = (name: ServiceName): Upstream => ({
    name,
    pool: new Pool(services[name], {
      connections: CONNECTIONS_PER_SERVICE,
      headersTimeout: upstream.timeoutMs,
      bodyTimeout: upstream.timeoutMs,
      connectTimeout: Math.min(upstream.timeoutMs, 10_000),
    }),
  });
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
