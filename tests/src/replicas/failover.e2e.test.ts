import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChildProcess } from 'node:child_process';
import { ErrorSchema } from '@petstore/contract';
import {
  callHttp,
  freePort,
  mongodBinary,
  spawnGuarded,
  stopGuarded,
  type HttpAnswer,
} from '@petstore/testkit';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stockedPet } from '../support/catalogue.js';
import { databaseNames } from '../support/databases.js';
import {
  startTestStack,
  unthrottled,
  type TestStack,
} from '../support/test-stack.js';

/**
 * "Users outgrow one machine": the stack on a replica set of three mongod processes, orders
 * placed all along, and the primary killed with SIGKILL. No order answered 201 is lost, no id is
 * given twice, orders are accepted again within 15 s, and every error meanwhile is an Error, 503
 * while there is no primary, never 500.
 */

const SET = 'failover';
const CUSTOMERS = 4;
/** How long orders go on after the kill, whatever happens: a bounded load. */
const AFTER_KILL_MS = 20_000;
const MAX_ORDERS = 5_000;

interface Member {
  host: string;
  process: ChildProcess;
}

const folders: string[] = [];
const members: Member[] = [];
let api: TestStack;

async function startMember(): Promise<Member> {
  const port = await freePort();
  const dbPath = await mkdtemp(join(tmpdir(), 'petstore-failover-'));
  folders.push(dbPath);
  const args = [
    ...['--port', String(port), '--bind_ip', '127.0.0.1', '--nounixsocket'],
    ...[
      '--dbpath',
      dbPath,
      '--replSet',
      SET,
      '--wiredTigerCacheSizeGB',
      '0.25',
    ],
    ...[
      '--oplogSize',
      '128',
      '--setParameter',
      'diagnosticDataCollectionEnabled=false',
    ],
    ...['--setParameter', 'transactionLifetimeLimitSeconds=6'],
  ];
  const process = spawnGuarded(await mongodBinary(), args, {
    output: 'ignore',
  });
  const host = `127.0.0.1:${port}`;
  // The set can be initiated only once every member listens.
  const direct = new MongoClient(`mongodb://${host}/?directConnection=true`, {
    serverSelectionTimeoutMS: 30_000,
  });
  try {
    await direct.db('admin').command({ ping: 1 });
  } finally {
    await direct.close();
  }
  return { host, process };
}

const setUri = () =>
  `mongodb://${members.map(({ host }) => host).join(',')}/?replicaSet=${SET}`;

/** The primary's host and process id, once the set has one. */
async function primary(): Promise<{ host: string; pid: number }> {
  const client = new MongoClient(setUri(), {
    serverSelectionTimeoutMS: 60_000,
  });
  try {
    const admin = client.db('admin');
    const { primary: host } = await admin.command({ hello: 1 });
    const { pid } = await admin.command({ serverStatus: 1 });
    return { host: String(host), pid: Number(pid) };
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  members.push(
    ...(await Promise.all([startMember(), startMember(), startMember()])),
  );
  const [first] = members;
  const direct = new MongoClient(
    `mongodb://${first!.host}/?directConnection=true`,
    {
      serverSelectionTimeoutMS: 30_000,
    },
  );
  try {
    const hosts = members.map(({ host }, _id) => ({ _id, host }));
    await direct
      .db('admin')
      .command({ replSetInitiate: { _id: SET, members: hosts } });
  } finally {
    await direct.close();
  }
  await primary();
  api = await startTestStack({ ...unthrottled, MONGODB_URI: setUri() });
}, 120_000);

afterAll(async () => {
  await api?.[Symbol.asyncDispose]();
  await Promise.all(members.map(({ process }) => stopGuarded(process)));
  await Promise.all(
    folders.map((folder) => rm(folder, { recursive: true, force: true })),
  );
});

interface Attempt {
  at: number;
  answer: HttpAnswer;
}

describe('the primary of a three-member replica set killed under order load', () => {
  it('loses no acknowledged order, gives no id twice, and takes orders again within 15 s', async () => {
    const { petId } = await stockedPet(api.admin, 1_000_000);
    const customers = await Promise.all(
      Array.from({ length: CUSTOMERS }, () => api.signUp()),
    );
    const attempts: Attempt[] = [];
    const placed = new Map<string, number>();
    const kill = { at: Number.POSITIVE_INFINITY };
    let orders = 0;
    const done = () =>
      orders >= MAX_ORDERS || Date.now() - kill.at > AFTER_KILL_MS;

    const customer = async ({ apiKey }: { apiKey: string }) => {
      while (!done()) {
        // Every attempt of an order carries its key, so a retry never orders twice.
        const key = randomUUID();
        orders++;
        while (!done()) {
          const answer = await callHttp(api.url, 'POST', '/v1/store/orders', {
            apiKey,
            body: { petId, quantity: 1 },
            headers: { 'idempotency-key': key },
          });
          attempts.push({ at: Date.now(), answer });
          if (answer.status === 201) {
            placed.set(key, (answer.body as { id: number }).id);
            break;
          }
          await sleep(50);
        }
      }
    };
    const load = Promise.all(customers.map(customer));

    await sleep(2_000);
    const before = placed.size;
    const { pid } = await primary();
    process.kill(pid, 'SIGKILL');
    kill.at = Date.now();
    await load;

    expect(before).toBeGreaterThan(0);
    const after = attempts.filter(({ at }) => at > kill.at);
    const firstPlaced = after.find(({ answer }) => answer.status === 201);
    expect(firstPlaced, 'an order accepted after the kill').toBeDefined();
    expect(firstPlaced!.at - kill.at).toBeLessThanOrEqual(15_000);

    const errors = attempts.filter(({ answer }) => answer.status >= 400);
    expect(errors.filter(({ answer }) => answer.status === 500)).toEqual([]);
    for (const { answer } of errors) {
      expect(ErrorSchema.parse(answer.body).status).toBe(answer.status);
      expect([503, 504]).toContain(answer.status);
    }

    const ids = [...placed.values()];
    expect(new Set(ids).size).toBe(ids.length);
    const client = new MongoClient(setUri());
    try {
      const stored = await client
        .db(databaseNames.store)
        .collection('orders')
        .find(
          { _id: { $in: ids as never[] } },
          { readConcern: { level: 'majority' } },
        )
        .toArray();
      expect(stored).toHaveLength(ids.length);
    } finally {
      await client.close();
    }
  });
});
