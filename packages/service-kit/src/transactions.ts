import type { ClientSession, MongoClient, TransactionOptions } from 'mongodb';

export type Session = ClientSession;

// A transaction reads one snapshot and is acknowledged once a majority of the replica set has it
// in its journal, so an acknowledged write survives the loss of any one member.
const TRANSACTION_OPTIONS: TransactionOptions = {
  readConcern: { level: 'snapshot' },
  writeConcern: { w: 'majority', journal: true },
  readPreference: 'primary',
};

/**
 * Runs `work` in one transaction. The driver runs it again after a transient error (a write
 * conflict, an election) and retries a commit whose outcome is unknown, so `work` writes only
 * through `session` and keeps nothing from one run to the next.
 */
export function inTransaction<T>(
  client: MongoClient,
  work: (session: Session) => Promise<T>,
): Promise<T> {
  return client.withSession((session) =>
    session.withTransaction(() => work(session), TRANSACTION_OPTIONS),
  );
}
