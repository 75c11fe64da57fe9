import { eventRelay, eventSender, eventSource, type Logger } from '@petstore/service-kit';
import type { Db } from 'mongodb';
import type { StoreConfig } from './config.js';
import type { InventoryDocument } from './inventory/inventory-repository.js';
import { derivedStatus } from './inventory/pet-status.js';
import { toOrder, type OrderDocument } from './orders/order-repository.js';

/**
 * The store's events — `order.created`, `order.completed`, `order.cancelled` (kept in the order
 * by the update that made it) and `inventory.updated` (in the stock entry) — handed to the gateway,
 * which delivers them to webhooks.
 */
export function storeEventRelay(db: Db, config: StoreConfig, logger: Logger) {
  const orders = eventSource({
    collection: db.collection<OrderDocument>('orders'),
    toData: (order, event) => event.data ?? toOrder(order),
    accountOf: (order) => order.ownerId,
  });
  const inventory = eventSource({
    collection: db.collection<InventoryDocument>('inventory'),
    // The quantity set, and the status it gives with the open orders as they are now.
    toData: (entry, event) => {
      const set = event.data?.quantity;
      const quantity = typeof set === 'number' ? set : entry.quantity;
      return { petId: entry._id, quantity, status: derivedStatus(quantity, entry.openOrders ?? 0) };
    },
  });
  return eventRelay({
    logger,
    sources: [orders, inventory],
    send: eventSender({
      baseUrls: config.gateway.urls,
      internalToken: config.internalToken,
      timeoutMs: config.pets.timeoutMs,
    }),
    idleMs: config.events.relayIntervalMs,
  });
}
