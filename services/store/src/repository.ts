import type { Db } from 'mongodb';
import { IdempotencyRepository } from './idempotency/idempotency-repository.js';
import { InventoryRepository } from './inventory/inventory-repository.js';
import { OrderRepository } from './orders/order-repository.js';
import { OutboxRepository } from './outbox/outbox-repository.js';

/**
 * Everything the store keeps in its database, one repository per collection; these files are
 * the only ones that talk to Mongo.
 */
export interface Repository {
  orders: OrderRepository;
  inventory: InventoryRepository;
  idempotency: IdempotencyRepository;
  outbox: OutboxRepository;
}

export function createRepository(db: Db): Repository {
  return {
    orders: new OrderRepository(db),
    inventory: new InventoryRepository(db),
    idempotency: new IdempotencyRepository(db),
    outbox: new OutboxRepository(db),
  };
}
