import { eventRelay, eventSender, eventSource, type Logger } from '@petstore/service-kit';
import type { Db } from 'mongodb';
import type { PetsConfig } from './config.js';
import { petsCollection } from './storage.js';

/**
 * `pet.status_changed`, kept in the pet by the update that changed its status, handed to the
 * gateway, which delivers it to webhooks: the pet as the API shows it, with the status it took.
 */
export function petsEventRelay(db: Db, config: PetsConfig, logger: Logger) {
  return eventRelay({
    logger,
    sources: [
      eventSource({
        collection: petsCollection(db),
        toData: (pet, event) => ({
          id: pet._id,
          name: pet.name,
          categoryId: pet.categoryId,
          status: event.data?.status ?? pet.status,
        }),
      }),
    ],
    send: eventSender({
      baseUrls: config.gateway.urls,
      internalToken: config.internalToken,
      timeoutMs: 2_000,
    }),
    idleMs: config.events.relayIntervalMs,
  });
}
