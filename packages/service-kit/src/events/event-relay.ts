import type { RecordedEvent } from '@petstore/contract';
import type { Logger } from '../logger.js';
import { Worker } from '../worker.js';
import type { EventSource } from './event-source.js';

export interface EventRelayOptions {
  logger: Logger;
  sources: EventSource[];
  /** Hands events to the gateway (at least once: handing one twice must be harmless). */
  send: (events: RecordedEvent[]) => Promise<void>;
  /** How soon to try again after a failure (an unreachable gateway), unless kicked. */
  idleMs: number;
  /**
   * How often to look through the collections for events no write named (a dead process's, or
   * another's); 30 s by default.
   */
  quietMs?: number;
}

/** Events handed over at once: the most `POST /internal/events` takes. */
export const EVENT_BATCH = 100;

/**
 * Hands the events that documents carry to the gateway, which delivers them to webhooks: a batch
 * at a time, then takes them off their documents. At least once: a relay that dies between the
 * two hands the batch over again, and the gateway records an event once.
 *
 * A write names its document through its source's `written`, which kicks the relay: it reads that
 * document by id. Looking through a collection (a query no unique index serves) is only for what
 * a failure or another process left: at start, every `quietMs`, and after a failure, which it
 * retries every `idleMs` (a gateway that was down gets the events within `idleMs` of its return).
 */
export function eventRelay({
  logger,
  sources,
  send,
  idleMs,
  quietMs = 30_000,
}: EventRelayOptions): Worker {
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
      // At once again only when more is waiting: a write since then kicks it anyway.
      return full || sources.some((source) => source.hinted());
    },
  });
  for (const source of sources) source.onWritten(() => worker.kick());
  return worker;
}
