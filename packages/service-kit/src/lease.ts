import type { Document, Filter, MatchKeysAndValues } from 'mongodb';

/** The fields a collection keeps a document's lease in: who has it, and until when. */
export interface LeaseFields<T> {
  owner: keyof T & string;
  until: keyof T & string;
}

/**
 * A lease on a document: one process at a time works on it, and when that process dies the lease
 * runs out and another takes the document over. Each collection keeps its stored field names.
 */
export class Lease<T extends Document> {
  readonly #owner: string;
  readonly #until: string;

  constructor({ owner, until }: LeaseFields<T>) {
    this.#owner = owner;
    this.#until = until;
  }

  /** Matches a document no one leases, or whose lease ran out by `now`. */
  free(now: Date): Filter<T> {
    return { [this.#until]: { $not: { $gt: now } } } as Filter<T>;
  }

  /** The `$set` that leases the document to `owner` for `leaseMs` from `now`: claims or renews. */
  take(
    owner: string,
    leaseMs: number,
    now = new Date(),
  ): MatchKeysAndValues<T> {
    const until = new Date(now.getTime() + leaseMs);
    return {
      [this.#owner]: owner,
      [this.#until]: until,
    } as MatchKeysAndValues<T>;
  }

  /** Matches a document `owner` still leases. */
  heldBy(owner: string): Filter<T> {
    return { [this.#owner]: owner } as Filter<T>;
  }

  /** The `$unset` that ends the lease. */
  released(): Record<string, ''> {
    return { [this.#owner]: '', [this.#until]: '' };
  }
}
