/**
 * Runs the work given for one key one after another, in the order given, and work for other keys
 * alongside. A failed piece of work does not stop the next.
 */
export function oneAtATime<K>() {
  const last = new Map<K, Promise<unknown>>();
  return <T>(key: K, work: () => Promise<T>): Promise<T> => {
    const done = (last.get(key) ?? Promise.resolve()).then(work);
    const settled = done.catch(() => undefined);
    last.set(key, settled);
    void settled.then(() => {
      if (last.get(key) === settled) last.delete(key);
    });
    return done;
  };
}
