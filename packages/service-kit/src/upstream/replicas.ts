/** Longer than a service drains (SHUTDOWN_DRAIN_MS) and restarts. */
const AVOID_MS = 10_000;

interface Entry<Replica> {
  replica: Replica;
  /** Until when (ms since the epoch) requests go elsewhere: it refused a connection or drains. */
  avoidUntil: number;
}

/**
 * The replicas of one service, taken in turn; one that refused a connection or drains gets no
 * request for a while if another can take it.
 */
export class Replicas<Replica> {
  readonly #entries: Entry<Replica>[];
  #turn = 0;

  constructor(replicas: Replica[]) {
    if (replicas.length === 0) throw new Error('[upstream] no replica');
    this.#entries = replicas.map((replica) => ({ replica, avoidUntil: 0 }));
  }

  get all(): Replica[] {
    return this.#entries.map(({ replica }) => replica);
  }

  /**
   * The replica for the next request, but not one of `tried`; when all are avoided, the one
   * avoided longest ago (in a rolling restart, the one already back).
   */
  pick(tried: ReadonlySet<Replica> = new Set()): Replica {
    const now = Date.now();
    const count = this.#entries.length;
    const start = this.#turn++;
    let fallback: Entry<Replica> | undefined;
    for (let index = 0; index < count; index++) {
      const entry = this.#entries[(start + index) % count]!;
      if (tried.has(entry.replica)) continue;
      if (entry.avoidUntil <= now) return entry.replica;
      if (fallback === undefined || entry.avoidUntil < fallback.avoidUntil)
        fallback = entry;
    }
    return (fallback ?? this.#entries[start % count]!).replica;
  }

  /** Passes `replica` over for `forMs`, unless it is the only one. */
  avoid(replica: Replica, forMs = AVOID_MS): void {
    const entry = this.#entries.find(
      (candidate) => candidate.replica === replica,
    );
    if (entry && this.#entries.length > 1)
      entry.avoidUntil = Date.now() + forMs;
  }
}
