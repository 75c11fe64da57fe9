import { createInternalClient, type RecordedEvent } from '@petstore/contract';
import type { Logger } from '../logger.js';
import { Worker } from '../worker.js';
import type { EventSource } from './event-source.js';

export interface EventRelayOptions {
  logger: Logger;
  sources: EventSource[];
  /** At least once: sending an event twice must be harmless. */
  send: (events: RecordedEvent[]) => Promise<void>;
  idleMs: number;
  quietMs?: number;
}

export const EVENT_BATCH = 100;

// A write's `written` kicks the relay to read that document by id; looking through a collection
// (no unique index serves it) is for what others left: at start, every `quietMs`, after a failure.
export function eventRelay(options: EventRelayOptions): Worker {
  const { logger, sources, send, idleMs, quietMs = 30_000 } = options;
  let failed = false;
  let lookedThroughAt = Number.NEGATIVE_INFINITY;
  const worker = new Worker({
    name: 'event-relay',
    logger,
    idleMs: Math.max(idleMs, quietMs),
    nextDueInMs: () => Promise.resolve(failed ? idleMs : undefined),
    step: async () => {
      const lookThrough = failed || Date.now() - lookedThroughAt >= quietMs;
      if (lookThrough) lookedThroughAt = Date.now();
      failed = true;
      let full = false;
      for (const source of sources) {
        const held = await source.pending(EVENT_BATCH, lookThrough);
        if (held.length === 0) continue;
        await send(held.map(({ event }) => event));
        await source.handedOver(held);
        full ||= held.length === EVENT_BATCH;
      }
      failed = false;
      // Again at once only when more is waiting: a later write kicks it anyway.
      return full || sources.some((source) => source.hinted());
    },
  });
  for (const source of sources) source.onWritten(() => worker.kick());
  return worker;
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
