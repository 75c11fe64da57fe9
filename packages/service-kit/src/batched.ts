export interface BatchedOptions<K, T, R> {
  /** Writes the batch of `key`, resolving to each item's result, in the items' order. */
  flush: (key: K, items: T[]) => Promise<R[]>;
  /**
   * Whether a flush that failed with `error` fails the next batch of its key alike, at once and
   * unwritten, rather than let it wait for that failure and then try too (the database is down).
   */
  failsTheNext?: (error: unknown) => boolean;
}

/** Adds an item to the next batch of its key; resolves to its result once that batch is written. */
export type Batched<K, T, R> = (key: K, item: T) => Promise<R>;

interface KeyBatches<T, R> {
  /** Resolves once the last batch started is written: to the error it failed with, if it did. */
  last: Promise<unknown>;
  /** The batch that gathers items, until the one before it is written. */
  open?: { items: T[]; results: Promise<R[]> };
}

/**
 * Gathers the items of a key that come while a batch of that key is written into the next batch,
 * so that a stream of them costs a write per batch, not one each. One batch of a key is written at
 * a time, batches of other keys alongside. A flush that fails fails its own items only.
 */
export function batched<K, T, R>({
  flush,
  failsTheNext = () => false,
}: BatchedOptions<K, T, R>): Batched<K, T, R> {
  const keys = new Map<K, KeyBatches<T, R>>();
  return (key, item) => {
    const batches = keys.get(key) ?? { last: Promise.resolve() };
    keys.set(key, batches);
    batches.open ??= openBatch(key, batches);
    const { items, results } = batches.open;
    const index = items.push(item) - 1;
    return results.then((all) => all[index] as R);
  };

  function openBatch(key: K, batches: KeyBatches<T, R>) {
    const items: T[] = [];
    const results = batches.last.then((failure) => {
      batches.open = undefined;
      if (failure !== undefined && failsTheNext(failure))
        throw failure as Error;
      return flush(key, items);
    });
    const last = results.then(
      () => undefined,
      (error: unknown) => error,
    );
    batches.last = last;
    void last.then(() => {
      if (batches.last === last && !batches.open) keys.delete(key);
    });
    return { items, results };
  }
}
