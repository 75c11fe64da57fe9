import { LRUCache } from 'lru-cache';
import type { Db } from 'mongodb';
import {
  RateLimiterMemory,
  RateLimiterMongo,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { RATE_LIMITS_COLLECTION } from '../database/collections.js';

interface RatePolicy {
  perSecond: number;
  burst: number;
}

const RESERVED_SHARE = 0.1;

/** What this gateway reserved of a key's window and has not admitted yet. */
interface Reservation {
  tokens: number;
  remainingElsewhere: number;
  resetsAt: number;
}

/**
 * One limit per key for all gateways, counted in the database: a fixed window of burst / rate
 * seconds with room for `burst` requests. A gateway reserves a tenth of the burst in one atomic
 * increment and admits from it in memory; what it does not use lapses with the window. If the
 * database fails, each gateway counts alone.
 */
function sharedWindows(db: Db, name: string, { perSecond, burst }: RatePolicy) {
  const duration = Math.max(1, Math.ceil(burst / perSecond));
  const chunk = Math.max(1, Math.floor(burst * RESERVED_SHARE));
  const limiter = new RateLimiterMongo({
    storeClient: db,
    tableName: RATE_LIMITS_COLLECTION,
    keyPrefix: name,
    points: burst,
    duration,
    disableIndexesCreation: true,
    inMemoryBlockOnConsumed: burst,
    insuranceLimiter: new RateLimiterMemory({
      keyPrefix: name,
      points: burst,
      duration,
    }),
  });
  const reservations = new LRUCache<string, Reservation>({
    max: 100_000,
    ttl: duration * 1000,
  });
  /** One request counted, as the `RateLimit-*` and `Retry-After` headers say it. */
  const admission = (allowed: boolean, remaining: number, resetMs: number) => ({
    allowed,
    limit: burst,
    remaining,
    resetSeconds: Math.max(0, Math.ceil(resetMs / 1000)),
  });
  type Admission = ReturnType<typeof admission>;
  const reserving = new Map<string, Promise<Admission>>();
  const admitted = (reservation: Reservation): Admission => {
    reservation.tokens -= 1;
    const remaining = reservation.remainingElsewhere + reservation.tokens;
    return admission(true, remaining, reservation.resetsAt - Date.now());
  };

  const reserve = async (key: string): Promise<Admission> => {
    const res = await limiter.consume(key, chunk).catch((refused: unknown) => {
      if (refused instanceof RateLimiterRes) return refused;
      throw refused;
    });
    // A refusal from the in-memory block counts nothing (consumedPoints 0) and grants nothing.
    const granted =
      res.consumedPoints === 0
        ? 0
        : Math.min(chunk, burst - (res.consumedPoints - chunk));
    const reservation = {
      tokens: Math.max(0, granted),
      remainingElsewhere: res.remainingPoints,
      resetsAt: Date.now() + res.msBeforeNext,
    };
    if (reservation.tokens > 0) {
      reservations.set(key, reservation, { ttl: res.msBeforeNext });
      return admitted(reservation);
    }
    return admission(false, 0, res.msBeforeNext);
  };

  return async function take(key: string): Promise<Admission> {
    // Requests arriving while a reservation is taken wait for it and share it.
    for (;;) {
      const reserved = reservations.get(key);
      if (reserved && reserved.tokens > 0) return admitted(reserved);
      const pending = reserving.get(key);
      if (!pending) break;
      const outcome = await pending.catch(() => undefined);
      if (outcome && !outcome.allowed) return outcome;
    }
    const next = reserve(key).finally(() => reserving.delete(key));
    reserving.set(key, next);
    return next;
  };
}

/**
 * Per account (all its keys share one), and per client address for the `/v1` operations that need
 * no key (sign-up): one limit whatever the number of gateways.
 */
export type RateLimits = Record<
  'account' | 'address',
  ReturnType<typeof sharedWindows>
>;

export function rateLimits(
  db: Db,
  limits: Record<keyof RateLimits, RatePolicy>,
): RateLimits {
  return {
    account: sharedWindows(db, 'account', limits.account),
    address: sharedWindows(db, 'address', limits.address),
  };
}
