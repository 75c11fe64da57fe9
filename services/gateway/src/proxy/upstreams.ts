import { internalHeaders } from '@petstore/service-kit';
import { Pool } from 'undici';

/** The services behind the gateway, as the contract's route metadata names them. */
export type ServiceName = 'pets' | 'store';

interface Replica {
  pool: Pool;
  /** Until when (ms since the epoch) requests go elsewhere: it refused a connection or drains. */
  avoidUntil: number;
}

/**
 * Keep-alive connections to each replica of a service, taken in turn; a replica that refused a
 * connection or answered `Connection: close` (draining) gets none for a while if another can.
 */
export class Upstream {
  readonly name: ServiceName;
  readonly #replicas: Replica[];
  #turn = 0;

  constructor(name: ServiceName, pools: Pool[]) {
    this.name = name;
    this.#replicas = pools.map((pool) => ({ pool, avoidUntil: 0 }));
  }

  /**
   * The replica for the next request, but not one of `tried`; when all are avoided, the one
   * avoided longest ago (in a rolling restart, the one already back).
   */
  pick(tried: ReadonlySet<Pool> = new Set()): Pool {
    const now = Date.now();
    const count = this.#replicas.length;
    const start = this.#turn++;
    let fallback: Replica | undefined;
    for (let index = 0; index < count; index++) {
      const replica = this.#replicas[(start + index) % count]!;
      if (tried.has(replica.pool)) continue;
      if (replica.avoidUntil <= now) return replica.pool;
      if (fallback === undefined || replica.avoidUntil < fallback.avoidUntil) fallback = replica;
    }
    return (fallback ?? this.#replicas[start % count]!).pool;
  }

  avoid(pool: Pool, forMs = AVOID_MS): void {
    const replica = this.#replicas.find((candidate) => candidate.pool === pool);
    if (replica && this.#replicas.length > 1) replica.avoidUntil = Date.now() + forMs;
  }

  close(): Promise<void> {
    return Promise.all(this.#replicas.map(({ pool }) => pool.close())).then(() => undefined);
  }
}

export type Upstreams = Record<ServiceName, Upstream>;

const CONNECTIONS_PER_REPLICA = 128;
/** Longer than a service drains (SHUTDOWN_DRAIN_MS) and restarts. */
const AVOID_MS = 10_000;
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

export async function closeUpstreams(upstreams: Upstreams): Promise<void> {
  await Promise.all(Object.values(upstreams).map((upstream) => upstream.close()));
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
    throw new Error(`[gateway] ${upstream.name} /ready answered ${response.statusCode}`);
  }
}
