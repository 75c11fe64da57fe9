import { AppError, type Session } from '@petstore/service-kit';
import type { GatewayCollections } from '../database/collections.js';

/** API.md's limits of one account. */
export const MAX_ACTIVE_KEYS = 10;
export const MAX_WEBHOOKS = 16;

/**
 * Refuses with 409 `conflict` one more of what `count` counts in the transaction of `session`
 * once the account has `limit` of them. It writes the account first, so that two transactions
 * of one account take turns and neither counts past the limit.
 */
export async function refuseOverLimit(
  accounts: GatewayCollections['accounts'],
  session: Session,
  limit: {
    accountId: string;
    max: number;
    what: string;
    count: () => Promise<number>;
  },
): Promise<void> {
  await accounts.updateOne(
    { _id: limit.accountId },
    { $inc: { turns: 1 } },
    { session },
  );
  if ((await limit.count()) < limit.max) return;
  throw new AppError(
    'conflict',
    `an account has at most ${limit.max} ${limit.what}`,
  );
}
