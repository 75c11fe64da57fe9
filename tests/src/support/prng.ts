/**
 * A small seeded pseudo-random generator (mulberry32): the same seed gives the same sequence, so
 * a run's choices (what a client sends, which process a fault hits, when) can be replayed.
 */
export class Prng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** A whole number in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One of `items` (which must not be empty). */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('[prng] nothing to pick from');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** A generator of its own, derived from this one's seed and `stream`, for one actor. */
  fork(stream: number): Prng {
    return new Prng(
      Math.imul(this.#state ^ 0x9e3779b9, 0x85ebca6b) +
        Math.imul(stream, 0xc2b2ae35),
    );
  }
}

/**
 * The seed a run uses: the environment variable `name` when it is set (a whole number), else
 * `fallback`. Print it, so that a failing run can be replayed.
 */
export function seedFrom(name: string, fallback: number): number {
  const given = process.env[name];
  if (given === undefined || given === '') return fallback;
  const seed = Number(given);
  if (!Number.isSafeInteger(seed))
    throw new Error(`${name} must be a whole number, not ${given}`);
  return seed;
}
