import type { RecordedEvent } from '@petstore/contract';
import {
  findPage,
  isDuplicateKey,
  recordEvent,
  toRecordedEvent,
  type PendingEvent,
  type WithPendingEvents,
} from '@petstore/service-kit';
import type { Collection, Db, Filter } from 'mongodb';
import { derivedStatus, type Stock, type StockChange } from '../pet-status.js';

export interface InventoryDocument extends WithPendingEvents {
  _id: number;
  quantity: number;
  /** Orders neither complete nor cancelled, moved in the same update as `quantity`. */
  openOrders: number;
  updatedAt: Date;
  /** Stock taken for orders not yet known to be stored, by order id. */
  holds?: Record<string, { quantity: number; at: Date }>;
  heldCount?: number;
  /** The orders whose closing moved this entry, by order id: moving it again is a no-op. */
  closed?: Record<string, Date>;
  closedCount?: number;
}

/** What a closed order owes its pet's stock: a cancel gives `quantity` back, a completion 0. */
export type Closing = { petId: number; orderId: number; quantity: number };

export type StockHold = Closing & { at: Date };

export type OrderMark = Pick<Closing, 'petId' | 'orderId'>;

export class InventoryRepository {
  readonly #inventory: Collection<InventoryDocument>;

  constructor(db: Db) {
    this.#inventory = db.collection<InventoryDocument>('inventory');
  }

  async find(petId: number): Promise<Stock | undefined> {
    const document = await this.#inventory.findOne({ _id: petId });
    return document ? toStock(document) : undefined;
  }

  /** A page in pet id order; only pets with stock (`inStock`) or without (`false`). */
  async list(after: number, limit: number, inStock?: boolean): Promise<Stock[]> {
    const filter: Filter<InventoryDocument> = {};
    if (inStock !== undefined) filter.quantity = inStock ? { $gt: 0 } : 0;
    return (await findPage(this.#inventory, filter, { after, limit })).map(toStock);
  }

  // The event's status depends on the open orders, which orders move at any time: the update only
  // matches the count it was read with.
  async set(
    petId: number,
    quantity: number,
    at: Date,
  ): Promise<StockChange & { event: RecordedEvent }> {
    for (;;) {
      const openOrders = (await this.#inventory.findOne({ _id: petId }))?.openOrders ?? 0;
      const data = { petId, quantity, status: derivedStatus(quantity, openOrders) };
      const updated: PendingEvent = { type: 'inventory.updated', timestamp: at, data };
      const { id, $set, $inc } = recordEvent(updated);
      try {
        const before = await this.#inventory.findOneAndUpdate(
          { _id: petId, openOrders },
          { $set: { quantity, updatedAt: at, ...$set }, $inc },
          { upsert: true, returnDocument: 'before' },
        );
        const after = { petId, quantity, openOrders };
        const event = toRecordedEvent(id, updated, data);
        return { before: before ? toStock(before) : undefined, after, event };
      } catch (error) {
        // The entry is there with another count: the upsert tried to insert a second one.
        if (!isDuplicateKey(error)) throw error;
      }
    }
  }

  take({ petId, orderId, quantity, at }: StockHold): Promise<StockChange | undefined> {
    const filter = { _id: petId, quantity: { $gte: quantity } };
    const hold = { [`holds.${orderId}`]: { quantity, at } };
    return this.#move(filter, at, { quantity: -quantity, openOrders: 1, heldCount: 1 }, hold);
  }

  /** The orders are stored: their holds go, their stock stays taken. */
  releaseHolds(holds: OrderMark[]): Promise<void> {
    return this.#removeMarks(holds, 'holds', 'heldCount');
  }

  /** The order will never be stored: its stock goes back, once. */
  returnHold({ petId, orderId, quantity }: StockHold, at: Date): Promise<StockChange | undefined> {
    const path = `holds.${orderId}`;
    const inc = { quantity, openOrders: -1, heldCount: -1 };
    return this.#move({ _id: petId, [path]: { $exists: true } }, at, inc, {}, { [path]: '' });
  }

  async holdsTakenBefore(before: Date): Promise<StockHold[]> {
    const documents = await this.#inventory.find({ heldCount: { $gt: 0 } }).toArray();
    return documents.flatMap(({ _id: petId, holds = {} }) =>
      Object.entries(holds)
        .filter(([, hold]) => hold.at < before)
        .map(([orderId, { quantity, at }]) => ({ petId, orderId: Number(orderId), quantity, at })),
    );
  }

  /** Applies a closing once: it marks the order. */
  close({ petId, orderId, quantity }: Closing, at: Date): Promise<StockChange | undefined> {
    const path = `closed.${orderId}`;
    const inc = { quantity, openOrders: -1, closedCount: 1 };
    return this.#move({ _id: petId, [path]: { $exists: false } }, at, inc, { [path]: at });
  }

  async closedBefore(before: Date): Promise<OrderMark[]> {
    const documents = await this.#inventory.find({ closedCount: { $gt: 0 } }).toArray();
    return documents.flatMap(({ _id: petId, closed = {} }) =>
      Object.entries(closed)
        .filter(([, at]) => at < before)
        .map(([orderId]) => ({ petId, orderId: Number(orderId) })),
    );
  }

  forgetClosed(marks: OrderMark[]): Promise<void> {
    return this.#removeMarks(marks, 'closed', 'closedCount');
  }

  // The entry after is computed from the entry before, which MongoDB returns with the update,
  // atomically: what this update changed and nothing else.
  async #move(
    filter: Filter<InventoryDocument>,
    at: Date,
    $inc: Pick<Stock, 'quantity' | 'openOrders'> & Record<string, number>,
    $set: Record<string, unknown>,
    $unset?: Record<string, ''>,
  ): Promise<StockChange | undefined> {
    const update = { $inc, $set: { updatedAt: at, ...$set }, ...($unset && { $unset }) };
    const before = await this.#inventory.findOneAndUpdate(filter, update, {
      returnDocument: 'before',
    });
    if (!before) return undefined;
    const stock = toStock(before);
    const { quantity, openOrders } = $inc;
    const after = { ...stock, quantity: stock.quantity + quantity };
    return { before: stock, after: { ...after, openOrders: stock.openOrders + openOrders } };
  }

  async #removeMarks(
    marks: OrderMark[],
    field: 'holds' | 'closed',
    count: 'heldCount' | 'closedCount',
  ): Promise<void> {
    if (marks.length === 0) return;
    await this.#inventory.bulkWrite(
      marks.map(({ petId, orderId }) => ({
        updateOne: {
          filter: { _id: petId, [`${field}.${orderId}`]: { $exists: true } },
          update: { $unset: { [`${field}.${orderId}`]: '' }, $inc: { [count]: -1 } },
        },
      })),
      { ordered: false },
    );
  }
}

function toStock({ _id, quantity, openOrders }: InventoryDocument): Stock {
  return { petId: _id, quantity, openOrders: openOrders ?? 0 };
}
