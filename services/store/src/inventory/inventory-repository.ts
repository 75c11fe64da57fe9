import { eventWritten, recordEvent, type WithPendingEvents } from '@petstore/service-kit';
import { MongoServerError, type Collection, type Db, type Filter } from 'mongodb';
import { derivedStatus } from './pet-status.js';

/** Stock an order took, kept in its pet's entry until the order is known to be stored or not. */
export interface HoldDocument {
  quantity: number;
  /** When the order took it: also the order's `placedAt`. */
  at: Date;
}

/** The stock of one pet, keyed by its id; created only after pets confirmed the pet. */
export interface InventoryDocument extends WithPendingEvents {
  _id: number;
  quantity: number;
  /**
   * How many of the pet's orders are open (placed, neither complete nor cancelled), moved in the
   * same update as the stock: with `quantity` it gives the pet's status without another query.
   */
  openOrders: number;
  updatedAt: Date;
  /** Unsettled holds by order id. */
  holds?: Record<string, HoldDocument>;
  /** How many holds are unsettled, so the sweeper finds them by an index. */
  heldCount?: number;
  /**
   * The orders whose closing (a cancel or a completion) moved this entry, by order id, each with
   * when: the mark that makes moving it again a no-op. Forgotten once the order owes nothing.
   */
  closed?: Record<string, Date>;
  /** How many closings are marked, so the sweeper finds them by an index. */
  closedCount?: number;
}

/** An order whose closing the stock still owes: a cancel gives `quantity` back, a completion 0. */
export interface Closing {
  petId: number;
  orderId: number;
  quantity: number;
}

/** The stock order `orderId` took from pet `petId`, as the hold records it. */
export interface StockHold {
  petId: number;
  orderId: number;
  quantity: number;
  at: Date;
}

export interface Stock {
  petId: number;
  quantity: number;
  openOrders: number;
}

/** A stock change: the entry before (none when it was just made) and after it. */
export interface StockChange {
  before?: Stock;
  after: Stock;
}

export interface StockFilter {
  /** Only pets with stock (`true`) or without (`false`). */
  inStock?: boolean;
  /** The pet id the page continues after. */
  after: number;
  limit: number;
}

export class InventoryRepository {
  private readonly inventory: Collection<InventoryDocument>;

  constructor(db: Db) {
    this.inventory = db.collection<InventoryDocument>('inventory');
  }

  async find(petId: number): Promise<Stock | undefined> {
    const document = await this.inventory.findOne({ _id: petId });
    return document ? toStock(document) : undefined;
  }

  async exists(petId: number): Promise<boolean> {
    return (await this.inventory.countDocuments({ _id: petId }, { limit: 1 })) > 0;
  }

  /**
   * Creates or replaces the stock count, with its `inventory.updated` event: the item as this
   * change answers it. Its status depends on the pet's open orders, which orders move at any
   * time, so the update only matches the count it was read with, and is tried again if an order
   * moved it in between.
   */
  async set(petId: number, quantity: number, at: Date): Promise<StockChange> {
    for (;;) {
      const openOrders = (await this.inventory.findOne({ _id: petId }))?.openOrders ?? 0;
      const event = recordEvent({
        type: 'inventory.updated',
        timestamp: at,
        data: { petId, quantity, status: derivedStatus(quantity, openOrders) },
      });
      try {
        const before = await this.inventory.findOneAndUpdate(
          { _id: petId, openOrders },
          { $set: { quantity, updatedAt: at, ...event.$set }, $inc: event.$inc },
          { upsert: true, returnDocument: 'before' },
        );
        eventWritten(this.inventory, petId);
        return {
          before: before ? toStock(before) : undefined,
          after: { petId, quantity, openOrders },
        };
      } catch (error) {
        // The entry is there with another count: the upsert tried to make a second one.
        if (!(error instanceof MongoServerError && error.code === 11000)) throw error;
      }
    }
  }

  /**
   * Takes the hold's quantity from stock in one conditional update, so concurrent orders can never
   * take more than there is; in the same update the pet gains an open order, and the hold is
   * recorded: until it is settled, the entry itself says which order took that stock. Undefined
   * when the stock (or the entry) is short.
   */
  async take({ petId, orderId, quantity, at }: StockHold): Promise<StockChange | undefined> {
    const before = await this.inventory.findOneAndUpdate(
      { _id: petId, quantity: { $gte: quantity } },
      {
        $inc: { quantity: -quantity, heldCount: 1, openOrders: 1 },
        $set: { updatedAt: at, [holdPath(orderId)]: { quantity, at } },
      },
      { returnDocument: 'before' },
    );
    return before ? changed(before, { quantity: -quantity, openOrders: 1 }) : undefined;
  }

  /**
   * The orders are stored: their holds go, their stock stays taken. One command for any number
   * of holds, each removed only if still there, so releasing twice is harmless.
   */
  releaseHolds(holds: StockHold[]): Promise<void> {
    return this.#removeMarks(holds, holdPath, 'heldCount');
  }

  /**
   * The order will never be stored: its stock goes back with its hold, and the pet loses the open
   * order, in one update conditional on the hold, so it happens once however often this runs.
   */
  async returnHold(
    { petId, orderId, quantity }: StockHold,
    at: Date,
  ): Promise<StockChange | undefined> {
    const before = await this.inventory.findOneAndUpdate(
      { _id: petId, [holdPath(orderId)]: { $exists: true } },
      {
        $unset: { [holdPath(orderId)]: '' },
        $inc: { quantity, heldCount: -1, openOrders: -1 },
        $set: { updatedAt: at },
      },
      { returnDocument: 'before' },
    );
    return before ? changed(before, { quantity, openOrders: -1 }) : undefined;
  }

  /** The holds taken before `before` that are still unsettled. */
  async holdsTakenBefore(before: Date): Promise<StockHold[]> {
    const documents = await this.inventory.find({ heldCount: { $gt: 0 } }).toArray();
    return documents.flatMap(({ _id: petId, holds = {} }) =>
      Object.entries(holds)
        .filter(([, hold]) => hold.at < before)
        .map(([orderId, { quantity, at }]) => ({ petId, orderId: Number(orderId), quantity, at })),
    );
  }

  /**
   * A closed order (cancelled or completed): its quantity goes back to stock (0 for a completion)
   * and the pet has one open order fewer, in one update that marks the order, conditional on its
   * mark, so it happens once however often it runs. Undefined when it had already happened.
   */
  async close({ petId, orderId, quantity }: Closing, at: Date): Promise<StockChange | undefined> {
    const delta = { quantity, openOrders: -1 };
    const before = await this.inventory.findOneAndUpdate(
      { _id: petId, [closedPath(orderId)]: { $exists: false } },
      { $inc: { ...delta, closedCount: 1 }, $set: { updatedAt: at, [closedPath(orderId)]: at } },
      { returnDocument: 'before' },
    );
    return before ? changed(before, delta) : undefined;
  }

  /** The closing marks made before `before`. */
  async closedBefore(before: Date): Promise<{ petId: number; orderId: number }[]> {
    const documents = await this.inventory.find({ closedCount: { $gt: 0 } }).toArray();
    return documents.flatMap(({ _id: petId, closed = {} }) =>
      Object.entries(closed)
        .filter(([, at]) => at < before)
        .map(([orderId]) => ({ petId, orderId: Number(orderId) })),
    );
  }

  /** Forgets closing marks, each only if still there. */
  forgetClosed(marks: { petId: number; orderId: number }[]): Promise<void> {
    return this.#removeMarks(marks, closedPath, 'closedCount');
  }

  /** Removes marks of orders (holds, closings) and counts them off, in one command. */
  async #removeMarks(
    marks: { petId: number; orderId: number }[],
    pathOf: (orderId: number) => string,
    count: 'heldCount' | 'closedCount',
  ): Promise<void> {
    if (marks.length === 0) return;
    await this.inventory.bulkWrite(
      marks.map(({ petId, orderId }) => ({
        updateOne: {
          filter: { _id: petId, [pathOf(orderId)]: { $exists: true } },
          update: { $unset: { [pathOf(orderId)]: '' }, $inc: { [count]: -1 } },
        },
      })),
      { ordered: false },
    );
  }

  /** One page of stock entries in pet id order. */
  async list({ inStock, after, limit }: StockFilter): Promise<Stock[]> {
    const filter: Filter<InventoryDocument> = { _id: { $gt: after } };
    if (inStock !== undefined) filter.quantity = inStock ? { $gt: 0 } : 0;
    const documents = await this.inventory.find(filter).sort({ _id: 1 }).limit(limit).toArray();
    return documents.map(toStock);
  }
}

function holdPath(orderId: number): `holds.${number}` {
  return `holds.${orderId}`;
}

function closedPath(orderId: number): `closed.${number}` {
  return `closed.${orderId}`;
}

function toStock(document: InventoryDocument): Stock {
  return {
    petId: document._id,
    quantity: document.quantity,
    openOrders: document.openOrders ?? 0,
  };
}

/**
 * The entry before an update and as the update left it. Some servers (mongo-java-server 1.47) read
 * the document again to answer with it after an update, which a concurrent update can change; the
 * document before is exact, and the update's own change is added to it.
 */
function changed(
  before: InventoryDocument,
  delta: { quantity: number; openOrders: number },
): StockChange {
  const stock = toStock(before);
  return {
    before: stock,
    after: {
      ...stock,
      quantity: stock.quantity + delta.quantity,
      openOrders: stock.openOrders + delta.openOrders,
    },
  };
}
