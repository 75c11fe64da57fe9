import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoServerError, type Db } from 'mongodb';
import type { Logger } from './logger.js';
import { Worker } from './worker.js';

/** `process_lease`: which process of the service holds the database, refreshed by heartbeats. */
interface LeaseDocument {
  _id: 'service';
  holder: string;
  pid: number;
  host: string;
  heartbeatAt: Date;
}

export interface LeaseTimings {
  heartbeatMs: number;
  /** A lease not refreshed for this long belongs to a process that is gone. */
  staleMs: number;
}

const DEFAULT_TIMINGS: LeaseTimings = { heartbeatMs: 3_000, staleMs: 10_000 };

function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === 11000;
}

/**
 * Makes this process the only one of its service on `db`, for a database that cannot isolate
 * one process's updates from another's (FerretDB 1.x). Taking the lease is an insert on a unique
 * `_id`, which FerretDB does isolate; a lease whose holder stopped refreshing it is stale and is
 * taken over. A live holder makes this fail, after waiting long enough to tell it from one that
 * has just died. Losing the lease later (this process stalled while another took over) is fatal:
 * `onLost` is called and should end the process.
 */
export async function takeSingleProcessLease(
  db: Db,
  {
    service,
    logger,
    onLost,
    timings = DEFAULT_TIMINGS,
  }: {
    service: string;
    logger: Logger;
    onLost: () => void;
    timings?: LeaseTimings;
  },
): Promise<{ release(): Promise<void> }> {
  const leases = db.collection<LeaseDocument>('process_lease');
  const holder = randomUUID();
  const mine = (): LeaseDocument => ({
    _id: 'service',
    holder,
    pid: process.pid,
    host: hostname(),
    heartbeatAt: new Date(),
  });
  const deadline = Date.now() + timings.staleMs + timings.heartbeatMs;
  for (;;) {
    try {
      await leases.insertOne(mine());
      break;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const current = await leases.findOne({ _id: 'service' });
    if (current && Date.now() - current.heartbeatAt.getTime() > timings.staleMs) {
      // Only that stale lease goes: a newer one taken meanwhile by another process stays.
      await leases.deleteOne({ _id: 'service', holder: current.holder });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `[${service}] another process of ${service} (pid ${current?.pid} on ${current?.host}) ` +
          `uses database ${db.databaseName}; the embedded FerretDB serves one process per ` +
          'service, so replicas need MongoDB (MONGODB_URI)',
      );
    }
    await sleep(timings.heartbeatMs);
  }

  const heartbeat = new Worker({
    name: 'process-lease',
    logger,
    idleMs: timings.heartbeatMs,
    step: async () => {
      const { matchedCount } = await leases.updateOne(
        { _id: 'service', holder },
        { $set: { heartbeatAt: new Date() } },
      );
      if (matchedCount === 0) {
        logger.fatal(
          `another process of ${service} took the database over while this one stalled; stopping`,
        );
        onLost();
      }
      return false;
    },
  });
  heartbeat.start();
  return {
    async release() {
      await heartbeat.stop();
      await leases.deleteOne({ _id: 'service', holder });
    },
  };
}
