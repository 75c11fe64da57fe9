import { eventRelay, eventSender, eventSource, type Logger } from '@petstore/service-kit';
import type { Db } from 'mongodb';
import type { StoreConfig } from './config.js';
import type { InventoryDocument } from './repositories/inventory-repository.js';
import { toOrder, type OrderDocument } from './repositories/order-repository.js';

/** Events stay in the order or stock entry written with them until the relay sends them. */
export function storeEvents(db: Db, config: StoreConfig, logger: Logger) {
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
  const relay = eventRelay({
    logger,
    sources: [orders, inventory],
    send: eventSender({ baseUrls: config.gateway.urls, internalToken: config.internalToken }),
    idleMs: config.events.relayIntervalMs,
  });
  return { orders, inventory, relay };
}
