import { setTimeout as sleep } from 'node:timers/promises';

export interface BatchedOptions<T> {
  /** How long the first item of a batch waits for others: a lone item is flushed this late. */
  lingerMs: number;
  /** Writes a batch. One runs at a time: what comes meanwhile goes in the next. */
  flush: (items: T[]) => Promise<void>;
  /** Past this many waiting, an item is refused at once, left to what finishes lost items. */
  most?: number;
}

export interface Batched<T> {
  /** Resolves or rejects as the batch `item` went in did; rejects at once when refused. */
  add(item: T): Promise<void>;
  /** Resolves once every item added so far was flushed, or failed. */
  flushed(): Promise<void>;
}

/** Gathers items that come close together so that they cost one write, not one each. */
export function batched<T>(options: BatchedOptions<T>): Batched<T> {
  const { lingerMs, flush, most = Number.POSITIVE_INFINITY } = options;
  let open: { items: T[]; done: Promise<void> } | undefined;
  let last = Promise.resolve();
  let waiting = 0;
  return {
    add(item) {
      if (waiting >= most)
        return Promise.reject(new Error(`${waiting} items wait already`));
      waiting++;
      if (open === undefined) {
        const items: T[] = [];
        const done = Promise.all([last, sleep(lingerMs)]).then(() => {
          open = undefined;
          waiting -= items.length;
          return flush(items);
        });
        last = done.catch(() => undefined);
        open = { items, done };
      }
      open.items.push(item);
      return open.done;
    },
    flushed: () => last,
  };
}
