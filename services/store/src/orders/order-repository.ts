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
import type { Closing, StockHold } from '../inventory/inventory-repository.js';
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
  /**
   * Set by its closing (a cancel or a completion), with when: the stock is owed the closing until
   * the store sees to it (`Closing`); cleared once it has.
   */
  stockOwed?: Date;
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
   * The order as its closing left it, when the scope may see it: whether it is cancelled, and
   * what the stock is still owed, if anything. Never a tombstone.
   */
  async findClosed(
    scope: OrderScope,
    id: number,
  ): Promise<{ order: PlacedOrder; cancelled: boolean; owed?: Closing } | undefined> {
    const document = await this.orders.findOne({ _id: id, ...ownerFilter(scope) });
    if (!document || document.aborted) return undefined;
    return {
      order: toOrder(document),
      cancelled: document.cancelled,
      ...(document.stockOwed ? { owed: closingOf(document) } : {}),
    };
  }

  /**
   * Cancels the order if it is still open, in one conditional update that also records the
   * stock it owes back and the `order.cancelled` event: of two racing cancels only one matches,
   * and only that one gets the closing to see to.
   */
  async cancelOpen(scope: OrderScope, id: number, at: Date): Promise<Closing | undefined> {
    const event = recordEvent({ type: 'order.cancelled', timestamp: at });
    const before = await this.orders.findOneAndUpdate(
      { _id: id, ...ownerFilter(scope), ...open },
      {
        $set: { cancelled: true, cancelledAt: at, stockOwed: at, ...event.$set },
        $inc: event.$inc,
      },
      { returnDocument: 'before' },
    );
    if (!before) return undefined;
    eventWritten(this.orders, id);
    return closingOf({ ...before, cancelled: true });
  }

  /**
   * Completes the order if it is open (and moves its ship date when given), with the closing the
   * stock is owed and its `order.completed` event, in one conditional update.
   */
  async completeOpen(id: number, at: Date, shipDate?: Date): Promise<PlacedOrder | undefined> {
    const set: Partial<OrderDocument> = { complete: true, completedAt: at, stockOwed: at };
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

  /** The closings made before `before` that the stock may still be owed. */
  async owedBefore(before: Date): Promise<Closing[]> {
    const documents = await this.orders.find({ stockOwed: { $lt: before } }).toArray();
    return documents.map(closingOf);
  }

  /** Of these orders, the ids of those whose closing the stock may still be owed. */
  async stillOwed(ids: number[]): Promise<Set<number>> {
    const documents = await this.orders
      .find({ _id: { $in: ids }, stockOwed: { $exists: true } }, { projection: { _id: 1 } })
      .toArray();
    return new Set(documents.map(({ _id }) => _id));
  }

  /** The stock has seen to these orders' closings. */
  async settled(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.orders.updateMany({ _id: { $in: ids } }, { $unset: { stockOwed: '' } });
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

/** What a closed order owes its pet's stock: its quantity when cancelled, nothing when completed. */
function closingOf(document: OrderDocument): Closing {
  return {
    petId: document.petId,
    orderId: document._id,
    quantity: document.cancelled ? document.quantity : 0,
  };
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
