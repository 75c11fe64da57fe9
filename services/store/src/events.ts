import type { PetStatus } from '@petstore/contract';
import {
  eventMessages,
  newEvent,
  type Logger,
  type NewMessage,
  type Sender,
} from '@petstore/service-kit';
import {
  derivedStatus,
  statusMoved,
  type Stock,
  type StockChange,
} from './pet-status.js';
import type { PetsAdapter } from './pets-service/pets-adapter.js';

/** The topic of status pushes to the pets service. */
export const STATUS_TOPIC = 'pet-status';

export interface StatusPush {
  petId: number;
  status: PetStatus;
  version: number;
}

/** What a change of stock tells: `inventory.updated` when asked, and a push when the status moved. */
export function stockMessages(
  change: StockChange,
  { updated = false } = {},
): NewMessage[] {
  const { petId, quantity } = change.after;
  const status = derivedStatus(change.after);
  const messages: NewMessage[] = [];
  if (updated) {
    const updated = newEvent('inventory.updated', { petId, quantity, status });
    messages.push(...eventMessages([updated]));
  }
  if (statusMoved(change)) messages.push(statusPush(change.after));
  return messages;
}

/** Tells pets the status `stock` gives the pet, as of its version. */
export function statusPush(stock: Stock): NewMessage {
  const { petId, version } = stock;
  const payload: StatusPush = { petId, status: derivedStatus(stock), version };
  return { topic: STATUS_TOPIC, payload };
}

/** Sends status pushes to pets; a pet pets no longer has is passed over. */
export function statusPushSender(pets: PetsAdapter, logger: Logger): Sender {
  return async (messages) => {
    for (const { payload } of messages) {
      const { petId, status, version } = payload as StatusPush;
      if ((await pets.pushStatus(petId, status, version)) === 'pet_not_found') {
        logger.warn(
          { petId },
          'outbox: the pet no longer exists; its status push is dropped',
        );
      }
    }
  };
}
