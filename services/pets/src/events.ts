import { eventRelay, eventSender, eventSource, type Logger } from '@petstore/service-kit';
import type { Db } from 'mongodb';
import type { PetsConfig } from './config.js';
import { petsCollection } from './storage.js';

/**
 * `pet.status_changed`, kept in the pet by the update that changed its status (with the pet as
 * that update left it), handed to the gateway, which delivers it to webhooks.
 */
export function petsEventRelay(db: Db, config: PetsConfig, logger: Logger) {
  return eventRelay({
    logger,
    sources: [
      eventSource({ collection: petsCollection(db), toData: (_pet, event) => event.data ?? {} }),
    ],
    send: eventSender({ baseUrls: config.gateway.urls, internalToken: config.internalToken }),
    idleMs: config.events.relayIntervalMs,
  });
}
