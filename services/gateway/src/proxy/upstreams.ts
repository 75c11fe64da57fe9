import { internalHeaders } from '@petstore/service-kit';
import { Pool } from 'undici';
import type { Config } from '../config.js';

/** The services behind the gateway, by the name the contract's route metadata gives them. */
export type ServiceName = keyof Config['services'];

/** One process (or one address in front of several) of a service. */
interface Replica {
  pool: Pool;
  /** Until when (ms since the epoch) requests go elsewhere: it refused a connection or drains. */
  avoidUntil: number;
}

/**
 * One service behind the gateway: keep-alive connections to each of its replicas (one address,
 * such as a Kubernetes Service, is one replica). Requests go to each replica in turn; a replica
 * that refused a connection, or that answered `Connection: close` (what a service does while it
 * drains before stopping), gets none for a few seconds while another can take them.
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
   * The replica for the next request; `tried` are those it already failed on. When every other
   * replica is avoided, the one avoided longest ago: in a rolling restart, the one already back,
   * not the one stopping now.
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

  /** Sends the next requests elsewhere for `forMs`, when there is anywhere else. */
  avoid(pool: Pool, forMs = AVOID_MS): void {
    const replica = this.#replicas.find((candidate) => candidate.pool === pool);
    if (replica && this.#replicas.length > 1) replica.avoidUntil = Date.now() + forMs;
  }

  close(): Promise<void> {
    return Promise.all(this.#replicas.map(({ pool }) => pool.close())).then(() => undefined);
  }
}

export type Upstreams = Record<ServiceName, Upstream>;

/** Connections kept per replica; a slow answer holds one, the others keep flowing. */
const CONNECTIONS_PER_REPLICA = 128;
/** Longer than a service drains before it stops (SHUTDOWN_DRAIN_MS), and its restart. */
const AVOID_MS = 10_000;
/**
 * The longest a connection stays idle in the pool, whatever the service's keep-alive hint: a
 * service that drains for longer than this (SHUTDOWN_DRAIN_MS) has no idle connection of the
 * gateway left when it stops, so no request is sent on one it is closing.
 */
const IDLE_CONNECTION_MS = 1_000;

export function createUpstreams({ services, upstream }: Config): Upstreams {
  const options = {
    connections: CONNECTIONS_PER_REPLICA,
    headersTimeout: upstream.timeoutMs,
    bodyTimeout: upstream.timeoutMs,
    connectTimeout: Math.min(upstream.timeoutMs, 10_000),
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

/** Resolves when the service's `/ready` answers 200 within `timeoutMs`, else rejects. */
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
