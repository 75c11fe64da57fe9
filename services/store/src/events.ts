import type { Order, PetStatus, WebhookEventType } from '@petstore/contract';
import {
  eventMessages,
  newEvent,
  type NewMessage,
} from '@petstore/service-kit';
import {
  derivedStatus,
  statusMoved,
  type Stock,
  type StockChange,
} from './pet-status.js';

/** The topic of status pushes to the pets service. */
export const STATUS_TOPIC = 'pet-status';

export interface StatusPush {
  petId: number;
  status: PetStatus;
  version: number;
}

/** An order's event for webhooks: the order as the API shows it, for its owner and admins. */
export function orderEvent(
  type: WebhookEventType,
  { order, ownerId }: { order: Order; ownerId: string },
): NewMessage[] {
  return eventMessages([newEvent(type, order, ownerId)]);
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
export function statusPush({
  petId,
  quantity,
  openOrders,
  version,
}: Stock): NewMessage {
  const payload: StatusPush = {
    petId,
    status: derivedStatus({ quantity, openOrders }),
    version,
  };
  return { topic: STATUS_TOPIC, payload };
}
