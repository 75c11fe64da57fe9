import type { Collection, Db, Filter } from 'mongodb';

/** The stock of one pet, keyed by its id; created only after pets confirmed the pet. */
export interface InventoryDocument {
  _id: number;
  quantity: number;
  updatedAt: Date;
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
   * Takes `quantity` from stock in one conditional update, so concurrent orders can never take
   * more than there is; false when the stock (or the entry) is short.
   */
  async take(petId: number, quantity: number, at: Date): Promise<boolean> {
    const result = await this.inventory.updateOne(
      { _id: petId, quantity: { $gte: quantity } },
      { $inc: { quantity: -quantity }, $set: { updatedAt: at } },
    );
    return result.modifiedCount === 1;
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

function toStock(document: InventoryDocument): Stock {
  return { petId: document._id, quantity: document.quantity };
}
