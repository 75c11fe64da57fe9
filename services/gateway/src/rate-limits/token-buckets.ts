import type { Admission, RatePolicy } from './rate-limiter.js';

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface TokenBucketsOptions extends RatePolicy {
  /** The most buckets kept; full buckets go first, then the oldest. */
  maxBuckets?: number;
  now?: () => number;
}

/** One token bucket per key, in this process's memory. */
export class TokenBuckets {
  readonly #buckets = new Map<string, Bucket>();
  readonly #perMs: number;
  readonly #policy: RatePolicy;
  readonly #maxBuckets: number;
  readonly #now: () => number;

  constructor({
    perSecond,
    burst,
    maxBuckets = 100_000,
    now = () => performance.now(),
  }: TokenBucketsOptions) {
    this.#policy = { perSecond, burst };
    this.#perMs = perSecond / 1000;
    this.#maxBuckets = maxBuckets;
    this.#now = now;
  }

  take(key: string): Admission {
    const now = this.#now();
    const bucket = this.#buckets.get(key) ?? this.#newBucket(key, now);
    bucket.tokens = this.#tokensAt(bucket, now);
    bucket.updatedAt = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    const { burst, perSecond } = this.#policy;
    return {
      allowed,
      limit: burst,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: Math.ceil((burst - bucket.tokens) / perSecond),
      retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond)),
    };
  }

  get size(): number {
    return this.#buckets.size;
  }

  #tokensAt(bucket: Bucket, now: number): number {
    return Math.min(this.#policy.burst, bucket.tokens + (now - bucket.updatedAt) * this.#perMs);
  }

  #newBucket(key: string, now: number): Bucket {
    if (this.#buckets.size >= this.#maxBuckets) this.#makeRoom(now);
    const bucket = { tokens: this.#policy.burst, updatedAt: now };
    this.#buckets.set(key, bucket);
    return bucket;
  }

  /** A full bucket is the same as none; when none is full, the least recently created goes. */
  #makeRoom(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      if (this.#tokensAt(bucket, now) >= this.#policy.burst) this.#buckets.delete(key);
    }
    for (const key of this.#buckets.keys()) {
      if (this.#buckets.size < this.#maxBuckets) break;
      this.#buckets.delete(key);
    }
  }
}
