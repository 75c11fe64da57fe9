import type { Document, Filter, MatchKeysAndValues } from 'mongodb';

/**
 * A lease on a document: one process at a time works on it, and when that process dies the lease
 * runs out and another takes the document over. Each collection keeps its stored field names.
 */
export class Lease<T extends Document> {
  /** `fields`: where a collection keeps a document's lease: who has it, and until when. */
  constructor(
    private readonly fields: Record<'owner' | 'until', keyof T & string>,
  ) {}

  /** Matches a document no one leases, or whose lease ran out by `now`. */
  free(now: Date): Filter<T> {
    return { [this.fields.until]: { $not: { $gt: now } } } as Filter<T>;
  }

  /** The `$set` that leases the document to `owner` for `leaseMs` from `now`: claims or renews. */
  take(
    owner: string,
    leaseMs: number,
    now = new Date(),
  ): MatchKeysAndValues<T> {
    const until = new Date(now.getTime() + leaseMs);
    return {
      [this.fields.owner]: owner,
      [this.fields.until]: until,
    } as MatchKeysAndValues<T>;
  }

  /** Matches a document `owner` still leases. */
  heldBy(owner: string): Filter<T> {
    return { [this.fields.owner]: owner } as Filter<T>;
  }

  /** The `$unset` that ends the lease. */
  released(): Record<string, ''> {
    return { [this.fields.owner]: '', [this.fields.until]: '' };
  }
}
