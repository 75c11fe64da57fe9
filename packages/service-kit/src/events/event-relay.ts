import { createInternalClient, type RecordedEvent } from '@petstore/contract';
import { batched } from '../batched.js';
import type { Logger } from '../logger.js';
import { Worker } from '../worker.js';
import type { EventSource, HeldEvent } from './event-source.js';

export interface EventRelayOptions {
  logger: Logger;
  sources: EventSource[];
  /** At least once: sending an event twice must be harmless. */
  send: (events: RecordedEvent[]) => Promise<void>;
  idleMs: number;
  quietMs?: number;
}

export const EVENT_BATCH = 100;

// How long the events a write hands over wait for those of the writes right behind it: a stream of
// writes then costs one request to the gateway and one update per wait instead of one each, and a
// lone write's events go 25 ms later, which no webhook receiver notices.
const EVENT_LINGER_MS = 25;

// Past it, handed events are not kept: the look through the collection finds them.
const MOST_WAITING = 10_000;

// A write hands its events over as they are sent, so that sending them needs no read. Looking
// through a collection (no unique index serves it) is for what no write handed over: events a dead
// process left, or whose sending failed. It runs at start, every `quietMs`, after a failure and
// again while it finds a full batch.
//
// Events of a document reach the gateway in the order they were written: one send at a time, and
// once a send failed, or before the first look through, handed events are left in their documents
// for the look through, which sends them oldest first, rather than overtaking the ones that failed.
export function eventRelay(options: EventRelayOptions): Worker {
  const { logger, sources, send, idleMs, quietMs = 30_000 } = options;
  let owed = true;
  let lookedThroughAt = Number.NEGATIVE_INFINITY;
  // A look through that succeeded sent what it read, so handed events it read are not sent again.
  // Those handed before it began were in their documents when it read them; those a write hands
  // over while it runs may have been, so it keeps the ids it sent.
  let handedCount = 0;
  let lookedThrough = { upTo: 0, sent: new Set<string>() };
  let turn = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const run = turn.then(work);
    turn = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  };
  const handOver = async (source: EventSource, held: HeldEvent[]) => {
    for (let first = 0; first < held.length; first += EVENT_BATCH) {
      const batch = held.slice(first, first + EVENT_BATCH);
      await send(batch.map(({ event }) => event));
      await source.handedOver(batch);
    }
  };
  const worker = new Worker({
    name: 'event-relay',
    logger,
    idleMs: Math.max(idleMs, quietMs),
    nextDueInMs: () => Promise.resolve(owed ? idleMs : undefined),
    step: () =>
      inTurn(async () => {
        if (!owed && Date.now() - lookedThroughAt < quietMs) return false;
        owed = false;
        lookedThroughAt = Date.now();
        const upTo = handedCount;
        const sent = new Set<string>();
        try {
          let full = false;
          for (const source of sources) {
            const held = await source.pending(EVENT_BATCH);
            await handOver(source, held);
            for (const { event } of held) sent.add(event.id);
            full ||= held.length === EVENT_BATCH;
          }
          owed ||= full;
          lookedThrough = { upTo, sent };
          return full;
        } catch (error) {
          owed = true;
          throw error;
        }
      }),
  });
  // What was not handed over is still in its documents: a look through is owed.
  const lost = (error: unknown) => {
    if (owed) return;
    owed = true;
    logger.warn({ err: error }, 'events a write handed over were not sent; looking for them');
    worker.kick();
  };
  const handed = sources.map((source) => {
    const batch = batched<{ held: HeldEvent; number: number }>({
      lingerMs: EVENT_LINGER_MS,
      most: MOST_WAITING,
      flush: (items) =>
        inTurn(() => {
          if (owed) return Promise.resolve();
          const { upTo, sent } = lookedThrough;
          const unsent = items.filter(
            ({ held, number }) => number > upTo && !sent.has(held.event.id),
          );
          return handOver(
            source,
            unsent.map(({ held }) => held),
          );
        }).catch(lost),
    });
    source.onWritten((held) => {
      for (const event of held) batch.add({ held: event, number: ++handedCount }).catch(lost);
    });
    return batch;
  });
  const stop = worker.stop.bind(worker);
  return Object.assign(worker, {
    async stop() {
      await stop();
      await Promise.all(handed.map((batch) => batch.flushed()));
    },
  });
}

export interface EventSenderOptions {
  baseUrls: string[];
  internalToken: string;
  timeoutMs?: number;
}

export function eventSender(
  options: EventSenderOptions,
): (events: RecordedEvent[]) => Promise<void> {
  const { baseUrls, internalToken, timeoutMs = 10_000 } = options;
  const clients = baseUrls.map((baseUrl) => createInternalClient({ baseUrl, internalToken }));
  let turn = 0;
  return async (events) => {
    const first = turn++;
    let failure: unknown;
    for (let attempt = 0; attempt < clients.length; attempt++) {
      const client = clients[(first + attempt) % clients.length];
      try {
        const response = await client!.events.recordEvents({
          body: { events },
          fetchOptions: { signal: AbortSignal.timeout(timeoutMs) },
        });
        if (response.status === 202) return;
        failure = new Error(`the gateway answered ${response.status}`);
      } catch (error) {
        failure = error;
      }
    }
    throw new Error(`no gateway took ${events.length} events`, { cause: failure });
  };
}
