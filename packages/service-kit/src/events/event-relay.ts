import type { RecordedEvent } from '@petstore/contract';
import type { Logger } from '../logger.js';
import { Worker } from '../worker.js';
import type { EventSource } from './event-source.js';

export interface EventRelayOptions {
  logger: Logger;
  sources: EventSource[];
  /** Hands events to the gateway (at least once: handing one twice must be harmless). */
  send: (events: RecordedEvent[]) => Promise<void>;
  /**
   * How soon to look again when nothing kicks the relay, after it handed events over or failed
   * to (events a dead process or an unreachable gateway left).
   */
  idleMs: number;
  /** How long to sleep after a look that found nothing, unless kicked; 30 s by default. */
  quietMs?: number;
}

/** Events handed over at once: the most `POST /internal/events` takes. */
export const EVENT_BATCH = 100;

/**
 * Hands the events that documents carry to the gateway, which delivers them to webhooks: a batch
 * at a time, then takes them off their documents. At least once: a relay that dies between the
 * two hands the batch over again, and the gateway records an event once.
 *
 * Every write kicks it, so a timer only has to find what a failure or another process left: it
 * looks again after `idleMs` once it handed events over or failed to (a gateway that was down
 * gets them within `idleMs` of answering again), and after `quietMs` (or `idleMs`, if longer)
 * once a look found nothing, so an idle service sends next to no commands.
 */
export function eventRelay({
  logger,
  sources,
  send,
  idleMs,
  quietMs = 30_000,
}: EventRelayOptions): Worker {
  let quiet = false;
  /** Hands a batch of each source over; whether one was full (more may be waiting). */
  const relayBatches = async () => {
    let relayed = false;
    let full = false;
    for (const source of sources) {
      const held = await source.pending(EVENT_BATCH);
      if (held.length === 0) continue;
      await send(held.map(({ event }) => event));
      await source.handedOver(held);
      relayed = true;
      full ||= held.length === EVENT_BATCH;
    }
    return { relayed, full };
  };
  return new Worker({
    name: 'event-relay',
    logger,
    idleMs: Math.max(idleMs, quietMs),
    nextDueInMs: () => Promise.resolve(quiet ? undefined : idleMs),
    step: async () => {
      quiet = false;
      const { relayed, full } = await relayBatches();
      quiet = !relayed;
      // Looking again at once only when a batch was full: a write since then kicks it anyway.
      return full;
    },
  });
}
