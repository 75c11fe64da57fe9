import {
  AppError,
  rateLimitRejections,
  requireCaller,
} from '@petstore/service-kit';
import { LRUCache } from 'lru-cache';
import type { Context } from 'koa';
import type { Db } from 'mongodb';
import {
  RateLimiterMemory,
  RateLimiterMongo,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { RATE_LIMITS_COLLECTION } from '../database/collections.js';
import type { Config } from '../config.js';
import type { GatewayMiddleware } from '../routing/gateway-router.js';

type RatePolicy = Config['rateLimit']['account'];

/** One request counted, as the `RateLimit-*` and `Retry-After` headers say it. */
interface Admission {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
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
  const reserving = new Map<string, Promise<Admission>>();

  const admission = (
    allowed: boolean,
    remaining: number,
    resetMs: number,
  ): Admission => ({
    allowed,
    limit: burst,
    remaining,
    resetSeconds: Math.max(0, Math.ceil(resetMs / 1000)),
  });
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

export function rateLimits(db: Db, limits: Config['rateLimit']): RateLimits {
  return {
    account: sharedWindows(db, 'account', limits.account),
    address: sharedWindows(db, 'address', limits.address),
  };
}

function tooMany(message: string, retryAfter: string): AppError {
  return new AppError('rate_limited', message, {
    headers: { 'Retry-After': retryAfter },
  });
}

/**
 * 429 over a limit, with the `RateLimit-*` headers. An operation with `auth: 'key'` counts
 * against its account's limit, whichever of its keys is used, and against at most
 * `maxInFlightPerAccount` requests of the account at a time in this gateway (so that an
 * account's slow or stuck requests use up its own share of the services, never another's); a
 * `/v1` or `/v2` operation without a key (sign-up) against the client address's limit.
 */
export function rateLimit({
  rateLimits,
  maxInFlightPerAccount: max,
}: {
  rateLimits: RateLimits;
  maxInFlightPerAccount: number;
}): GatewayMiddleware {
  const inFlight = new Map<string, number>();
  const admit = async (ctx: Context, limit: keyof RateLimits, key: string) => {
    const admission = await rateLimits[limit](key);
    ctx.set({
      'RateLimit-Limit': String(admission.limit),
      'RateLimit-Remaining': String(admission.remaining),
      'RateLimit-Reset': String(admission.resetSeconds),
    });
    if (admission.allowed) return;
    rateLimitRejections.inc({ limit });
    const retryAfter = String(Math.max(1, admission.resetSeconds));
    throw tooMany(`too many requests; retry in ${retryAfter} s`, retryAfter);
  };
  return async function rateLimit(ctx, next) {
    const { operation } = ctx.state;
    if (operation?.metadata.auth === 'none' && operation.version)
      await admit(ctx, 'address', ctx.ip);
    if (operation?.metadata.auth !== 'key') {
      await next();
      return;
    }
    const key = requireCaller(ctx).accountId;
    await admit(ctx, 'account', key);
    const count = inFlight.get(key) ?? 0;
    if (count >= max) {
      rateLimitRejections.inc({ limit: 'in_flight' });
      throw tooMany(`at most ${max} requests of an account at a time`, '1');
    }
    inFlight.set(key, count + 1);
    try {
      await next();
    } finally {
      const left = (inFlight.get(key) ?? 1) - 1;
      if (left === 0) inFlight.delete(key);
      else inFlight.set(key, left);
    }
  };
}
