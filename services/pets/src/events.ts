import type { RecordedEvent } from '@petstore/contract';
import { eventSender, eventSource, type EventSource } from '@petstore/service-kit';
import type { Db } from 'mongodb';
import type { PetsConfig } from './config.js';
import { petsCollection, type PetDocument } from './storage.js';

/**
 * `pet.status_changed`, kept in the pet by the update that changed its status (with the pet as
 * that update left it), and how it is sent to the gateway, which delivers it to webhooks.
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
