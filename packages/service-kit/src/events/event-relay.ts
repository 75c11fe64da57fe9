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
}

/** Events handed over at once: the most `POST /internal/events` takes. */
export const EVENT_BATCH = 100;

/** The longest the relay sleeps once looking keeps finding nothing. */
const QUIET_MAX_MS = 30_000;

/**
 * Hands the events that documents carry to the gateway, which delivers them to webhooks: a batch
 * at a time, then takes them off their documents. At least once: a relay that dies between the
 * two hands the batch over again, and the gateway records an event once.
 *
 * Every write kicks it, so looking on a timer only finds what a failure or another process left:
 * each look that finds nothing doubles the sleep, from `idleMs` up to 30 s (or `idleMs` if longer), so an idle service
 * sends next to no commands; finding events or failing brings it back to `idleMs`.
 */
export function eventRelay({ logger, sources, send, idleMs }: EventRelayOptions): Worker {
  const quietMaxMs = Math.max(idleMs, QUIET_MAX_MS);
  let quietLooks = 0;
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
    idleMs: quietMaxMs,
    nextDueInMs: () => Promise.resolve(Math.min(idleMs * 2 ** quietLooks, quietMaxMs)),
    step: async () => {
      try {
        const { relayed, full } = await relayBatches();
        quietLooks = relayed ? 0 : Math.min(quietLooks + 1, 16);
        // Looking again at once only when a batch was full: a write since then kicks it anyway.
        return full;
      } catch (error) {
        quietLooks = 0;
        throw error;
      }
    },
  });
}
