import type { RecordedEvent } from '@petstore/contract';
import {
  eventRelay,
  eventSender,
  eventSource,
  type EventSource,
  type Logger,
} from '@petstore/service-kit';
import type { Db } from 'mongodb';
import type { PetsConfig } from './config.js';
import { petsCollection, type PetDocument } from './storage.js';

/**
 * `pet.status_changed`, kept in the pet by the update that changed its status (with the pet as
 * that update left it), and how it reaches the gateway, which delivers it to webhooks.
 */
export interface PetEvents {
  source: EventSource<PetDocument>;
  send: (events: RecordedEvent[]) => Promise<void>;
}

export function petEvents(db: Db, config: PetsConfig): PetEvents {
  return {
    source: eventSource({
      collection: petsCollection(db),
      toData: (_pet, event) => event.data ?? {},
    }),
    send: eventSender({ baseUrls: config.gateway.urls, internalToken: config.internalToken }),
  };
}

/** Hands the events the pets carry to the gateway, and takes them off the pets. */
export function petsEventRelay({ source, send }: PetEvents, config: PetsConfig, logger: Logger) {
  return eventRelay({
    logger,
    sources: [source],
    send,
    idleMs: config.events.relayIntervalMs,
  });
}
