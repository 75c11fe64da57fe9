import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, type Logger } from '@petstore/service-kit';
import type {
  IdempotencyRepository,
  StoredResponse,
} from '../repositories/idempotency-repository.js';

// A retry takes over a dead holder's key within 3 s and waits at most 4 s: within the gateway's 5 s.
export const defaultIdempotencyOptions = {
  /** API.md asks for at least 24 h. */
  retentionMs: 48 * 60 * 60 * 1000,
  /** How long a claim lasts unless its request renews it (every third of that) while it runs. */
  pendingLeaseMs: 3_000,
  waitMs: 4_000,
  pollMs: 25,
};

export type Idempotency = ReturnType<typeof createIdempotency>;

export function createIdempotency(
  keys: IdempotencyRepository,
  logger: Logger,
  options = defaultIdempotencyOptions,
) {
  const later = (ms: number) => new Date(Date.now() + ms);

  async function actAndStore(id: string, claimToken: string, act: () => Promise<StoredResponse>) {
    const renewal = setInterval(() => {
      keys.renew(id, claimToken, later(options.pendingLeaseMs)).catch((error: unknown) => {
        logger.warn({ err: error, key: id }, 'could not renew the claim of an idempotency key');
      });
    }, options.pendingLeaseMs / 3);
    let response: StoredResponse;
    try {
      response = await act();
    } catch (error) {
      await keys.release(id, claimToken).catch((releaseError: unknown) => {
        logger.error({ err: releaseError, key: id }, 'could not release an idempotency key');
      });
      throw error;
    } finally {
      clearInterval(renewal);
    }
    // The order exists: respond with it even if the key cannot store it (a retry may act again).
    await keys.done(id, claimToken, response).catch((error: unknown) => {
      logger.error({ err: error, key: id }, 'could not store the response of an idempotency key');
    });
    return response;
  }

  return {
    // Once per account and key (docs/store-orders.md): `act` gets the key's record id, written on
    // the order; `recover` finds what a holder that died did under it since `since`.
    async run(
      { accountId, key, body }: { accountId: string; key: string; body: unknown },
      act: (id: string) => Promise<StoredResponse>,
      recover?: (id: string, since: Date) => Promise<StoredResponse | undefined>,
    ): Promise<StoredResponse> {
      const id = `${accountId}:${key}`;
      const requestHash = hashBody(body);
      const waitUntil = performance.now() + options.waitMs;
      // When this use of the key began, once taken over from a dead holder.
      let takenOverFrom: Date | undefined;

      for (let attempt = 0; ; attempt += 1) {
        if (attempt > 0 && performance.now() >= waitUntil) {
          throw new AppError(
            'conflict',
            'a request with this Idempotency-Key is still in progress; retry later',
          );
        }
        const claimToken = randomUUID();
        const since = takenOverFrom;
        const claimed = await keys.claim({
          _id: id,
          requestHash,
          claimToken,
          createdAt: since ?? new Date(),
          leaseExpiresAt: later(options.pendingLeaseMs),
          expiresAt: later(options.retentionMs),
        });
        if (claimed) {
          return actAndStore(id, claimToken, async () => {
            const recovered = since && (await recover?.(id, since));
            return recovered ?? act(id);
          });
        }

        const record = await keys.find(id);
        if (!record) continue;
        const now = new Date();
        if (record.expiresAt <= now) {
          await keys.deleteIfExpired(id, now);
          continue;
        }
        if (record.requestHash !== requestHash) {
          throw new AppError(
            'idempotency_key_reused',
            'this Idempotency-Key was used with another request body',
          );
        }
        if (record.state === 'done' && record.response) return record.response;
        if (record.leaseExpiresAt <= now) {
          // Its request died without storing a response: take the key over.
          await keys.release(id, record.claimToken);
          takenOverFrom = record.createdAt;
          continue;
        }
        await sleep(options.pollMs);
      }
    },
  };
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
