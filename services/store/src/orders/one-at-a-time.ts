/**
 * Runs the work given for one key one after another, in the order given, and work for other keys
 * alongside. Work that fails fails alone, unless `failsTheWaiting(error)`: then the work that was
 * waiting behind it fails with the same error, at once, rather than wait its turn to fail too.
 */
export function oneAtATime<K>(failsTheWaiting: (error: unknown) => boolean) {
  const last = new Map<K, Promise<unknown>>();
  return <T>(key: K, work: () => Promise<T>): Promise<T> => {
    const before = last.get(key) ?? Promise.resolve();
    const done = before.then(work, (error: unknown) => {
      if (failsTheWaiting(error)) throw error;
      return work();
    });
    last.set(key, done);
    const forget = () => {
      if (last.get(key) === done) last.delete(key);
    };
    done.then(forget, forget);
    return done;
  };
}
