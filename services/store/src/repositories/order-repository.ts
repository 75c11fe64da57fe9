import type { Order, RecordedEvent, WebhookEventType } from '@petstore/contract';
import {
  findPage,
  isDuplicateKey,
  newEventId,
  recordEvent,
  SequenceBlocks,
  toRecordedEvent,
  withEvent,
  type PendingEvent,
  type WithPendingEvents,
} from '@petstore/service-kit';
import type { Collection, Db, Filter } from 'mongodb';
import type { Closing, StockHold } from './inventory-repository.js';

export type PlacedOrder = Required<Order>;

// Cancelled orders stay, out of every response; so do tombstones (`aborted`), which take the id
// of an order whose placing failed so that it can never be stored.
export interface OrderDocument extends WithPendingEvents {
  _id: number;
  ownerId: string;
  petId: number;
  quantity: number;
  shipDate: Date;
  complete: boolean;
  cancelled: boolean;
  placedAt: Date;
  completedAt?: Date;
  cancelledAt?: Date;
  aborted?: true;
  idempotencyKey?: string;
  /** Set by its closing: the stock is owed the closing until this is cleared. */
  stockOwed?: Date;
}

export type NewOrderDocument = Pick<
  OrderDocument,
  'ownerId' | 'petId' | 'quantity' | 'shipDate' | 'placedAt' | 'idempotencyKey'
>;

/** An order as `insert` stores it, with its `order.created` event as the relay sends it. */
export interface OrderToInsert {
  document: OrderDocument;
  order: PlacedOrder;
  event: RecordedEvent;
}

/** Whose orders a query sees: a customer's own, or every order (`{}`) for an admin. */
export type OrderScope = { ownerId: string } | Record<string, never>;

export interface OrderFilter {
  petId?: number;
  complete?: boolean;
  after: number;
  limit: number;
}

const open = { complete: false, cancelled: false } as const;

export class OrderRepository {
  readonly #orders: Collection<OrderDocument>;
  // Ids come in blocks: the rest of a block is skipped when a store stops.
  readonly #ids: SequenceBlocks;

  constructor(db: Db) {
    this.#orders = db.collection<OrderDocument>('orders');
    this.#ids = new SequenceBlocks(db, 'orders', 100);
  }

  nextId(): Promise<number> {
    return this.#ids.next();
  }

  /** Made before the insert, so that its event is known however the insert ends. */
  toInsert(id: number, order: NewOrderDocument): OrderToInsert {
    const document: OrderDocument = { _id: id, ...order, ...open };
    const placed = toOrder(document);
    const { placedAt: timestamp, ownerId: accountId } = order;
    const eventId = newEventId();
    const created: PendingEvent = { type: 'order.created', timestamp, accountId, data: placed };
    return {
      document: { ...document, ...withEvent(eventId, created) },
      order: placed,
      event: toRecordedEvent(eventId, created, placed),
    };
  }

  async insert({ document }: OrderToInsert): Promise<void> {
    await this.#orders.insertOne(document);
  }

  /** The first insert of the id wins: a tombstone, unless the order is there (returned). */
  async abortUnlessStored({ orderId, petId, quantity, at }: StockHold) {
    const tombstone = { _id: orderId, ownerId: '', petId, quantity, shipDate: at, placedAt: at };
    try {
      await this.#orders.insertOne({ ...tombstone, ...open, cancelled: true, aborted: true });
      return undefined;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    return (await this.find({}, orderId))?.order;
  }

  async findByIdempotencyKey(idempotencyKey: string, since: Date) {
    const document = await this.#orders.findOne(
      { idempotencyKey, aborted: { $ne: true }, placedAt: { $gte: since } },
      { sort: { _id: -1 } },
    );
    return document ? toOrder(document) : undefined;
  }

  async list(
    scope: OrderScope,
    { petId, complete, after, limit }: OrderFilter,
  ): Promise<PlacedOrder[]> {
    const filter: Filter<OrderDocument> = { ...scope, cancelled: false };
    if (petId !== undefined) filter.petId = petId;
    if (complete !== undefined) filter.complete = complete;
    return (await findPage(this.#orders, filter, { after, limit })).map(toOrder);
  }

  /** Any order but a tombstone, with what the stock is still owed of its closing. */
  async find(
    scope: OrderScope,
    id: number,
  ): Promise<{ order: PlacedOrder; cancelled: boolean; owed?: Closing } | undefined> {
    const document = await this.#orders.findOne({ _id: id, ...scope, aborted: { $ne: true } });
    if (!document) return undefined;
    const owed = document.stockOwed ? closingOf(document) : undefined;
    return { order: toOrder(document), cancelled: document.cancelled, owed };
  }

  /** Of racing cancels, only the one that matches the open order gets the closing. */
  async cancelOpen(
    scope: OrderScope,
    id: number,
    at: Date,
  ): Promise<{ closing: Closing; event: RecordedEvent } | undefined> {
    const set = { cancelled: true, cancelledAt: at };
    const closed = await this.#closeOpen({ _id: id, ...scope }, set, 'order.cancelled', at);
    return closed && { closing: closingOf(closed.order), event: closed.event };
  }

  async completeOpen(
    id: number,
    at: Date,
    shipDate?: Date,
  ): Promise<{ order: PlacedOrder; event: RecordedEvent } | undefined> {
    const set = { complete: true, completedAt: at, ...(shipDate && { shipDate }) };
    const closed = await this.#closeOpen({ _id: id }, set, 'order.completed', at);
    return closed && { order: toOrder(closed.order), event: closed.event };
  }

  async moveShipDate(id: number, shipDate: Date): Promise<PlacedOrder | undefined> {
    const after = await this.#orders.findOneAndUpdate(
      { _id: id, ...open },
      { $set: { shipDate } },
      { returnDocument: 'after' },
    );
    return after ? toOrder(after) : undefined;
  }

  async owedBefore(before: Date): Promise<Closing[]> {
    return (await this.#orders.find({ stockOwed: { $lt: before } }).toArray()).map(closingOf);
  }

  async stillOwed(ids: number[]): Promise<Set<number>> {
    const documents = await this.#orders
      .find({ _id: { $in: ids }, stockOwed: { $exists: true } }, { projection: { _id: 1 } })
      .toArray();
    return new Set(documents.map(({ _id }) => _id));
  }

  async settled(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#orders.updateMany({ _id: { $in: ids } }, { $unset: { stockOwed: '' } });
  }

  async #closeOpen(
    filter: Filter<OrderDocument>,
    set: Partial<OrderDocument>,
    type: WebhookEventType,
    at: Date,
  ): Promise<{ order: OrderDocument; event: RecordedEvent } | undefined> {
    const pending: PendingEvent = { type, timestamp: at };
    const { id, $set, $inc } = recordEvent(pending);
    const before = await this.#orders.findOneAndUpdate(
      { ...filter, ...open },
      { $set: { ...set, stockOwed: at, ...$set }, $inc },
      { returnDocument: 'before' },
    );
    if (!before) return undefined;
    // A closed order never changes again: the event shows it as this update left it.
    const order = { ...before, ...set };
    return { order, event: toRecordedEvent(id, pending, toOrder(order), before.ownerId) };
  }
}

function closingOf({ petId, _id, cancelled, quantity }: OrderDocument): Closing {
  return { petId, orderId: _id, quantity: cancelled ? quantity : 0 };
}

/** An instant as the API writes it: ISO 8601 in UTC, without milliseconds when there are none. */
export function toTimestamp(date: Date): string {
  return date.toISOString().replace(/\.000Z$/, 'Z');
}

export function toOrder(document: OrderDocument): PlacedOrder {
  const { _id: id, petId, quantity, shipDate, complete } = document;
  return { id, petId, quantity, shipDate: toTimestamp(shipDate), complete };
}
