import { setTimeout as sleep } from 'node:timers/promises';
import type { ClientSession, MongoClient, TransactionOptions } from 'mongodb';
import { AppError } from './app-error.js';
import { backoffMs } from './backoff.js';

export type Session = ClientSession;

// A transaction reads one snapshot and is acknowledged once a majority of the replica set has it
// in its journal, so an acknowledged write survives the loss of any one member.
const TRANSACTION_OPTIONS: TransactionOptions = {
  readConcern: { level: 'snapshot' },
  writeConcern: { w: 'majority', journal: true },
  readPreference: 'primary',
};

/**
 * How long a transaction is run again after transient errors (write conflicts, an election):
 * within the gateway's 5 s, so that a client waiting on it hears 503, not a timeout.
 */
const RETRY_FOR_MS = 4_000;
/** Between runs of a transaction that conflicted: 10 ms doubling, at most 200 ms. */
const RETRY_BACKOFF = { baseMs: 5, maxMs: 200 };

/**
 * Runs `work` in one transaction. The driver runs it again after a transient error (a write
 * conflict, an election) and retries a commit whose outcome is unknown, so `work` writes only
 * through `session` and keeps nothing from one run to the next.
 */
export function inTransaction<T>(
  client: MongoClient,
  work: (session: Session) => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + RETRY_FOR_MS;
  let runs = 0;
  return client.withSession((session) =>
    session.withTransaction(async () => {
      // Transactions that conflicted on one document (orders of one pet) wait a random while
      // before they run again, rather than all at once and into each other again.
      if (runs > 0) await sleep(backoffMs(runs, RETRY_BACKOFF));
      runs += 1;
      if (Date.now() > deadline) {
        throw new AppError(
          'service_unavailable',
          'database unavailable: no transaction committed',
        );
      }
      return work(session);
    }, TRANSACTION_OPTIONS),
  );
}

/** Runs work in one transaction of a service's database: `inTransaction` bound to its client. */
export type Transaction = <T>(
  work: (session: Session) => Promise<T>,
) => Promise<T>;
