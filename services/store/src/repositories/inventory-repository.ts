import type { PetStatus } from '@petstore/contract';
import { findPage, type Session } from '@petstore/service-kit';
import type { Collection, Db, Filter } from 'mongodb';
import { stockOfStatus, type Stock, type StockChange } from '../pet-status.js';

export interface InventoryDocument {
  _id: number;
  quantity: number;
  /** Orders neither complete nor cancelled, moved in the same update as `quantity`. */
  openOrders: number;
  /** Counts every change: pets keeps a pushed status only over an older version. */
  version: number;
  updatedAt: Date;
}

export interface StockPage {
  after: number;
  limit: number;
  /** Only stock whose derived status is one of these. */
  statuses?: PetStatus[];
}

export class InventoryRepository {
  readonly #inventory: Collection<InventoryDocument>;

  constructor(db: Db) {
    this.#inventory = db.collection<InventoryDocument>('inventory');
  }

  async find(petId: number, session?: Session): Promise<Stock | undefined> {
    const document = await this.#inventory.findOne({ _id: petId }, { session });
    return document ? toStock(document) : undefined;
  }

  /** A page in pet id order. */
  async list({ after, limit, statuses }: StockPage): Promise<Stock[]> {
    const filter: Filter<InventoryDocument> = statuses
      ? { $or: statuses.map((status) => stockOfStatus[status]) }
      : {};
    return (await findPage(this.#inventory, filter, { after, limit })).map(
      toStock,
    );
  }

  /** Creates or replaces the stock count; the open orders stay as they are. */
  async set(
    petId: number,
    quantity: number,
    session: Session,
  ): Promise<StockChange> {
    const before = await this.#inventory.findOneAndUpdate(
      { _id: petId },
      {
        $set: { quantity, updatedAt: new Date() },
        $inc: { version: 1 },
        $setOnInsert: { openOrders: 0 },
      },
      { upsert: true, returnDocument: 'before', session },
    );
    if (!before)
      return { after: { petId, quantity, openOrders: 0, version: 1 } };
    const stock = toStock(before);
    return {
      before: stock,
      after: { ...stock, quantity, version: stock.version + 1 },
    };
  }

  /** The stock of a pet that no longer exists. */
  async remove(petId: number): Promise<void> {
    await this.#inventory.deleteOne({ _id: petId });
  }

  /** Takes `quantity` for `orders` new open orders, only if there is that much. */
  take(
    petId: number,
    { quantity, orders }: { quantity: number; orders: number },
    session: Session,
  ): Promise<StockChange | undefined> {
    const filter = { _id: petId, quantity: { $gte: quantity } };
    const moves = { quantity: -quantity, openOrders: orders };
    return this.#move(filter, moves, session);
  }

  /** An order closed: a cancelled one gives its `quantity` back, a completed one 0. */
  close(
    petId: number,
    quantity: number,
    session: Session,
  ): Promise<StockChange | undefined> {
    return this.#move({ _id: petId }, { quantity, openOrders: -1 }, session);
  }

  /** A new version of the same stock, to push its status again. */
  touch(petId: number, session: Session): Promise<StockChange | undefined> {
    return this.#move({ _id: petId }, { quantity: 0, openOrders: 0 }, session);
  }

  async #move(
    filter: Filter<InventoryDocument>,
    moves: Pick<Stock, 'quantity' | 'openOrders'>,
    session: Session,
  ): Promise<StockChange | undefined> {
    const after = await this.#inventory.findOneAndUpdate(
      filter,
      { $inc: { ...moves, version: 1 }, $set: { updatedAt: new Date() } },
      { returnDocument: 'after', session },
    );
    if (!after) return undefined;
    const stock = toStock(after);
    const before = {
      ...stock,
      quantity: stock.quantity - moves.quantity,
      openOrders: stock.openOrders - moves.openOrders,
      version: stock.version - 1,
    };
    return { before, after: stock };
  }
}

function toStock({
  _id,
  quantity,
  openOrders,
  version,
}: InventoryDocument): Stock {
  return { petId: _id, quantity, openOrders, version };
}
