import { eventRelay, eventSender, eventSource, type Logger } from '@petstore/service-kit';
import type { Db } from 'mongodb';
import type { StoreConfig } from './config.js';
import type { InventoryDocument } from './inventory/inventory-repository.js';
import { toOrder, type OrderDocument } from './orders/order-repository.js';

/**
 * The store's events — `order.created`, `order.completed`, `order.cancelled` (kept in the order
 * by the write that made it) and `inventory.updated` (in the stock entry) — handed to the gateway,
 * which delivers them to webhooks.
 */
export function storeEventRelay(db: Db, config: StoreConfig, logger: Logger) {
  const orders = eventSource({
    collection: db.collection<OrderDocument>('orders'),
    // A completed or cancelled order never changes again: the document shows it as the event does.
    toData: (order, event) => event.data ?? toOrder(order),
    accountOf: (order) => order.ownerId,
  });
  const inventory = eventSource({
    collection: db.collection<InventoryDocument>('inventory'),
    toData: (_entry, event) => event.data ?? {},
  });
  return eventRelay({
    logger,
    sources: [orders, inventory],
    send: eventSender({ baseUrls: config.gateway.urls, internalToken: config.internalToken }),
    idleMs: config.events.relayIntervalMs,
  });
}
