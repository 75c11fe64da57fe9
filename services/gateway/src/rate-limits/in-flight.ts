import { AppError, rateLimitRejections } from '@petstore/service-kit';

export type InFlight = ReturnType<typeof inFlight>;

/**
 * At most `max` requests of one account at a time in this gateway: one more is 429 at once, so
 * that an account's slow or stuck requests use up its own share of the services, never another's.
 */
export function inFlight(max: number) {
  const counts = new Map<string, number>();
  return async function within(
    accountId: string,
    run: () => Promise<void>,
  ): Promise<void> {
    const count = counts.get(accountId) ?? 0;
    if (count >= max) {
      rateLimitRejections.inc({ limit: 'in_flight' });
      throw new AppError(
        'rate_limited',
        `at most ${max} requests of an account at a time`,
        {
          headers: { 'Retry-After': '1' },
        },
      );
    }
    counts.set(accountId, count + 1);
    try {
      await run();
    } finally {
      const left = (counts.get(accountId) ?? 1) - 1;
      if (left === 0) counts.delete(accountId);
      else counts.set(accountId, left);
    }
  };
}
