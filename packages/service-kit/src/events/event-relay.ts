import type { RecordedEvent } from '@petstore/contract';
import type { Logger } from '../logger.js';
import { Worker } from '../worker.js';
import type { EventSource } from './event-source.js';

export interface EventRelayOptions {
  logger: Logger;
  sources: EventSource[];
  /** Hands events to the gateway (at least once: handing one twice must be harmless). */
  send: (events: RecordedEvent[]) => Promise<void>;
  /** How often to look when nothing kicks the relay (events a dead process or a failure left). */
  idleMs: number;
}

/** Events handed over at once: the most `POST /internal/events` takes. */
export const EVENT_BATCH = 100;

/**
 * Hands the events that documents carry to the gateway, which delivers them to webhooks: a batch
 * at a time, then takes them off their documents. At least once: a relay that dies between the
 * two hands the batch over again, and the gateway records an event once.
 */
export function eventRelay({ logger, sources, send, idleMs }: EventRelayOptions): Worker {
  return new Worker({
    name: 'event-relay',
    logger,
    idleMs,
    step: async () => {
      let relayed = false;
      for (const source of sources) {
        const held = await source.pending(EVENT_BATCH);
        if (held.length === 0) continue;
        await send(held.map(({ event }) => event));
        await source.handedOver(held);
        relayed = true;
      }
      return relayed;
    },
  });
}
