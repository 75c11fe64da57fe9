// Idempotency-Key: one answer per account and key, replayed to every retry until the key expires.
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, type Logger } from '@petstore/service-kit';
import type { IdempotencyRepository, StoredResponse } from './idempotency-repository.js';

export interface IdempotencyOptions {
  /** How long a key is remembered; API.md asks for at least 24 h. */
  retentionMs: number;
  /**
   * How long a pending claim lasts unless renewed; its request renews it every third of that
   * while it runs, so a lapsed claim means its request died, and another may take the key over.
   */
  pendingLeaseMs: number;
  /** How long a request waits for the claimant of its key to answer or to lapse. */
  waitMs: number;
  /** How often it looks while waiting. */
  pollMs: number;
}

/**
 * A retry after its claimant died takes the key over within 3 s, and waits at most 4 s: both
 * within the gateway's 5 s upstream timeout, so the client gets the key's answer.
 */
export const defaultIdempotencyOptions: IdempotencyOptions = {
  retentionMs: 48 * 60 * 60 * 1000,
  pendingLeaseMs: 3_000,
  waitMs: 4_000,
  pollMs: 25,
};

export interface IdempotentRequest {
  accountId: string;
  key: string;
  /** The validated body; its canonical JSON is hashed. */
  body: unknown;
}

/** The `_id` of the record of an account's key, also written on the order placed under it. */
export function idempotencyRecordId({ accountId, key }: { accountId: string; key: string }) {
  return `${accountId}:${key}`;
}

export interface Idempotency {
  /**
   * Runs `act` once per account and key: the first request claims the key and stores the answer;
   * a repeat with the same body gets that answer again, with another body 422
   * `idempotency_key_reused`; a repeat while the first is still running waits for its answer.
   * A failure is not remembered: the claim is released and a retry acts again.
   *
   * A request that takes over the key from a holder that died (its lease ran out) asks `recover`
   * first: the holder may have acted and died, or lost its database, before it could store the
   * answer; what was done under the key since `since` (when this use of the key began) is then
   * answered instead of acting twice.
   */
  run(
    request: IdempotentRequest,
    act: () => Promise<StoredResponse>,
    recover?: (since: Date) => Promise<StoredResponse | undefined>,
  ): Promise<StoredResponse>;
}

export function createIdempotency(
  keys: IdempotencyRepository,
  now: () => Date,
  logger: Logger,
  options: IdempotencyOptions = defaultIdempotencyOptions,
): Idempotency {
  const later = (ms: number) => new Date(now().getTime() + ms);

  return {
    async run({ accountId, key, body }, act, recover) {
      const id = idempotencyRecordId({ accountId, key });
      const requestHash = hashBody(body);
      const waitUntil = performance.now() + options.waitMs;
      // When this use of the key began, once a claim is taken over: the claim keeps it.
      let takenOverFrom: Date | undefined;

      for (let attempt = 0; ; attempt += 1) {
        if (attempt > 0 && performance.now() >= waitUntil) {
          throw new AppError(
            'conflict',
            'a request with this Idempotency-Key is still in progress; retry later',
          );
        }
        const claimToken = randomUUID();
        const claimed = await keys.claim({
          _id: id,
          requestHash,
          claimToken,
          createdAt: takenOverFrom ?? now(),
          leaseExpiresAt: later(options.pendingLeaseMs),
          expiresAt: later(options.retentionMs),
        });
        if (claimed) {
          const since = takenOverFrom;
          return actAndStore(id, claimToken, async () => {
            const recovered = since === undefined ? undefined : await recover?.(since);
            return recovered ?? act();
          });
        }

        const record = await keys.find(id);
        if (!record) continue; // released by a failed claimant: claim it again
        const at = now();
        if (record.expiresAt <= at) {
          await keys.deleteIfExpired(id, at);
          continue;
        }
        if (record.requestHash !== requestHash) {
          throw new AppError(
            'idempotency_key_reused',
            'this Idempotency-Key was used with another request body',
          );
        }
        if (record.state === 'done' && record.response) return record.response;
        if (record.leaseExpiresAt <= at) {
          // Its request died without storing an answer: take the key over, and recover what it
          // may have done.
          await keys.release(id, record.claimToken);
          takenOverFrom = record.createdAt;
          continue;
        }
        await sleep(options.pollMs);
      }
    },
  };

  async function actAndStore(
    id: string,
    claimToken: string,
    act: () => Promise<StoredResponse>,
  ): Promise<StoredResponse> {
    let response: StoredResponse;
    const renewal = setInterval(() => {
      keys.renew(id, claimToken, later(options.pendingLeaseMs)).catch((error: unknown) => {
        logger.warn({ err: error, key: id }, 'could not renew the claim of an idempotency key');
      });
    }, options.pendingLeaseMs / 3);
    try {
      response = await act();
    } catch (error) {
      clearInterval(renewal);
      await keys.release(id, claimToken).catch((releaseError: unknown) => {
        logger.error({ err: releaseError, key: id }, 'could not release an idempotency key');
      });
      throw error;
    }
    clearInterval(renewal);
    try {
      await keys.complete(id, claimToken, response);
    } catch (error) {
      // The order exists: answer it. A retry after the lease may act again; logged to be seen.
      logger.error({ err: error, key: id }, 'could not store the answer of an idempotency key');
    }
    return response;
  }
}

/** SHA-256 of the body's canonical JSON (keys sorted at every level, undefined left out). */
export function hashBody(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
