import type { Order } from '@petstore/contract';
import {
  eventWritten,
  recordEvent,
  SequenceBlocks,
  withEvent,
  type Caller,
  type WithPendingEvents,
} from '@petstore/service-kit';
import { MongoServerError, type Collection, type Db, type Filter } from 'mongodb';
import type { StockHold } from '../inventory/inventory-repository.js';
import { toTimestamp } from './timestamps.js';

/** An order as answered: the contract's Order with every field present. */
export type PlacedOrder = Required<Order>;

/**
 * An order as stored; a cancelled order stays, out of every answer. So does an aborted one: the
 * tombstone that took the id of an order whose placing failed, so that it can never be stored.
 */
export interface OrderDocument extends WithPendingEvents {
  _id: number;
  /** The account that placed it; every customer query filters on it. */
  ownerId: string;
  petId: number;
  quantity: number;
  shipDate: Date;
  complete: boolean;
  cancelled: boolean;
  placedAt: Date;
  completedAt?: Date;
  cancelledAt?: Date;
  /** A tombstone (also `cancelled`): no order was placed under this id. */
  aborted?: true;
  /** The `Idempotency-Key` record it was placed under (`<accountId>:<key>`), if any. */
  idempotencyKey?: string;
}

/** Whose orders a query may see: a customer's own, or every order for an admin. */
export type OrderScope = { ownerId: string } | { ownerId?: undefined };

export function scopeOf(caller: Caller): OrderScope {
  return caller.role === 'admin' ? {} : { ownerId: caller.accountId };
}

export interface NewOrderDocument {
  ownerId: string;
  petId: number;
  quantity: number;
  shipDate: Date;
  placedAt: Date;
  idempotencyKey?: string;
}

export interface OrderFilter {
  petId?: number;
  complete?: boolean;
  /** The id the page continues after. */
  after: number;
  limit: number;
}

/** What a cancellation gives back to stock. */
export interface CancelledOrder {
  petId: number;
  quantity: number;
}

/** An order that is neither complete nor cancelled: it still holds its pet (`pending`). */
const open = { complete: false, cancelled: false } as const;

/** Order ids taken from the counter at once; the rest of a block is skipped when a store stops. */
const ORDER_ID_BLOCK = 100;

export class OrderRepository {
  private readonly orders: Collection<OrderDocument>;
  readonly #ids: SequenceBlocks;

  constructor(db: Db) {
    this.orders = db.collection<OrderDocument>('orders');
    this.#ids = new SequenceBlocks(db, 'orders', ORDER_ID_BLOCK);
  }

  /** A fresh order id: unique, never reused, growing within a process (blocks of 100). */
  nextId(): Promise<number> {
    return this.#ids.next();
  }

  /** Stores the order with its `order.created` event, in one insert. */
  async insert(id: number, order: NewOrderDocument): Promise<PlacedOrder> {
    const document: OrderDocument = { _id: id, ...order, complete: false, cancelled: false };
    const placed = toOrder(document);
    await this.orders.insertOne({
      ...document,
      // The order as placed: its ship date may still move before the event is handed over.
      ...withEvent({
        type: 'order.created',
        timestamp: order.placedAt,
        accountId: order.ownerId,
        data: placed,
      }),
    });
    eventWritten(this.orders, id);
    return placed;
  }

  /**
   * Settles whether the order a hold was taken for is stored, when its insert's outcome is
   * unknown (it failed, or its request died): whoever inserts the id first wins. Inserts a
   * tombstone under the id unless the order is there; undefined when the order is not stored (and
   * now never will be), else the stored order.
   */
  async abortUnlessStored({
    orderId,
    petId,
    quantity,
    at,
  }: StockHold): Promise<PlacedOrder | undefined> {
    const tombstone: OrderDocument = {
      _id: orderId,
      ownerId: '',
      petId,
      quantity,
      shipDate: at,
      placedAt: at,
      complete: false,
      cancelled: true,
      aborted: true,
    };
    try {
      await this.orders.insertOne(tombstone);
      return undefined;
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === 11000)) throw error;
    }
    // The id was handed out for this hold alone: an order under it is the hold's order.
    const stored = await this.orders.findOne({ _id: orderId });
    return stored && stored.aborted !== true ? toOrder(stored) : undefined;
  }

  /**
   * The latest order placed under an `Idempotency-Key` record since `since`, cancelled or not;
   * never a tombstone.
   */
  async findByIdempotencyKey(
    idempotencyKey: string,
    since: Date,
  ): Promise<PlacedOrder | undefined> {
    const document = await this.orders.findOne(
      { idempotencyKey, aborted: { $ne: true }, placedAt: { $gte: since } },
      { sort: { _id: -1 } },
    );
    return document ? toOrder(document) : undefined;
  }

  /** One page of the orders the scope sees, in id order, cancelled ones left out. */
  async list(
    scope: OrderScope,
    { petId, complete, after, limit }: OrderFilter,
  ): Promise<PlacedOrder[]> {
    const filter: Filter<OrderDocument> = { ...ownerFilter(scope), cancelled: false };
    filter._id = { $gt: after };
    if (petId !== undefined) filter.petId = petId;
    if (complete !== undefined) filter.complete = complete;
    const documents = await this.orders.find(filter).sort({ _id: 1 }).limit(limit).toArray();
    return documents.map(toOrder);
  }

  /** The order when the scope may see it and it is not cancelled. */
  async find(scope: OrderScope, id: number): Promise<PlacedOrder | undefined> {
    const document = await this.orders.findOne({
      _id: id,
      ...ownerFilter(scope),
      cancelled: false,
    });
    return document ? toOrder(document) : undefined;
  }

  /**
   * Cancels the order if it is still open, in one conditional update: of two racing cancels only
   * one matches, and only that one gets what to give back to stock; and only that one records
   * the `order.cancelled` event.
   */
  async cancelOpen(scope: OrderScope, id: number, at: Date): Promise<CancelledOrder | undefined> {
    const event = recordEvent({ type: 'order.cancelled', timestamp: at });
    const before = await this.orders.findOneAndUpdate(
      { _id: id, ...ownerFilter(scope), ...open },
      { $set: { cancelled: true, cancelledAt: at, ...event.$set }, $inc: event.$inc },
      { returnDocument: 'before' },
    );
    if (!before) return undefined;
    eventWritten(this.orders, id);
    return { petId: before.petId, quantity: before.quantity };
  }

  /**
   * Completes the order if it is open (and moves its ship date when given), with its
   * `order.completed` event, in one conditional update.
   */
  async completeOpen(id: number, at: Date, shipDate?: Date): Promise<PlacedOrder | undefined> {
    const set: Partial<OrderDocument> = { complete: true, completedAt: at };
    if (shipDate) set.shipDate = shipDate;
    const event = recordEvent({ type: 'order.completed', timestamp: at });
    const after = await this.orders.findOneAndUpdate(
      { _id: id, ...open },
      { $set: { ...set, ...event.$set }, $inc: event.$inc },
      { returnDocument: 'after' },
    );
    if (!after) return undefined;
    eventWritten(this.orders, id);
    return toOrder(after);
  }

  /** Moves the ship date of an open order. */
  async moveShipDate(id: number, shipDate: Date): Promise<PlacedOrder | undefined> {
    const after = await this.orders.findOneAndUpdate(
      { _id: id, ...open },
      { $set: { shipDate } },
      { returnDocument: 'after' },
    );
    return after ? toOrder(after) : undefined;
  }
}

function ownerFilter(scope: OrderScope): Filter<OrderDocument> {
  return scope.ownerId === undefined ? {} : { ownerId: scope.ownerId };
}

/** An order as the API shows it. */
export function toOrder(document: OrderDocument): PlacedOrder {
  return {
    id: document._id,
    petId: document.petId,
    quantity: document.quantity,
    shipDate: toTimestamp(document.shipDate),
    complete: document.complete,
  };
}
