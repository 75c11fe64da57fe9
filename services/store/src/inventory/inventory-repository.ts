import type { Collection, Db, Filter } from 'mongodb';

/** Stock an order took, kept in its pet's entry until the order is known to be stored or not. */
export interface HoldDocument {
  quantity: number;
  /** When the order took it: also the order's `placedAt`. */
  at: Date;
}

/** The stock of one pet, keyed by its id; created only after pets confirmed the pet. */
export interface InventoryDocument {
  _id: number;
  quantity: number;
  updatedAt: Date;
  /** Unsettled holds by order id (an object, not an array: FerretDB 1.24 ignores `$pull` by condition). */
  holds?: Record<string, HoldDocument>;
  /** How many holds are unsettled, so the sweeper finds them by an index. */
  heldCount?: number;
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

  /** Creates or replaces the stock count. */
  async set(petId: number, quantity: number, at: Date): Promise<Stock> {
    await this.inventory.updateOne(
      { _id: petId },
      { $set: { quantity, updatedAt: at } },
      { upsert: true },
    );
    return { petId, quantity };
  }

  /**
   * Takes the hold's quantity from stock in one conditional update, so concurrent orders can never
   * take more than there is, and records the hold in the same update: until the hold is settled,
   * the entry itself says which order took that stock. False when the stock (or the entry) is short.
   */
  async take({ petId, orderId, quantity, at }: StockHold): Promise<boolean> {
    const result = await this.inventory.updateOne(
      { _id: petId, quantity: { $gte: quantity } },
      {
        $inc: { quantity: -quantity, heldCount: 1 },
        $set: { updatedAt: at, [holdPath(orderId)]: { quantity, at } },
      },
    );
    return result.modifiedCount === 1;
  }

  /** The order is stored: its hold goes, its stock stays taken. Idempotent. */
  async releaseHold({ petId, orderId }: StockHold): Promise<void> {
    await this.inventory.updateOne(
      { _id: petId, [holdPath(orderId)]: { $exists: true } },
      { $unset: { [holdPath(orderId)]: '' }, $inc: { heldCount: -1 } },
    );
  }

  /**
   * The order will never be stored: its stock goes back with its hold, in one conditional update
   * on the hold, so it goes back once however often this runs.
   */
  async returnHold({ petId, orderId, quantity }: StockHold, at: Date): Promise<void> {
    await this.inventory.updateOne(
      { _id: petId, [holdPath(orderId)]: { $exists: true } },
      {
        $unset: { [holdPath(orderId)]: '' },
        $inc: { quantity, heldCount: -1 },
        $set: { updatedAt: at },
      },
    );
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

  /** Puts `quantity` back in stock (a cancelled order, or an order that could not be stored). */
  async giveBack(petId: number, quantity: number, at: Date): Promise<void> {
    await this.inventory.updateOne({ _id: petId }, { $inc: { quantity }, $set: { updatedAt: at } });
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

function toStock(document: InventoryDocument): Stock {
  return { petId: document._id, quantity: document.quantity };
}
