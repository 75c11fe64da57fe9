import type { Order } from '@petstore/contract';
import { findPage, SequenceBlocks, type Session } from '@petstore/service-kit';
import type { Collection, Db, Filter } from 'mongodb';

export type PlacedOrder = Required<Order>;

/** Cancelled orders stay, out of every response. */
export interface OrderDocument {
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
  // Ids come in blocks, outside transactions: an id a failed order took is never used again.
  readonly #ids: SequenceBlocks;

  constructor(db: Db) {
    this.#orders = db.collection<OrderDocument>('orders');
    this.#ids = new SequenceBlocks(db, 'orders', 100);
  }

  nextId(): Promise<number> {
    return this.#ids.next();
  }

  async insert(
    orders: Omit<OrderDocument, 'complete' | 'cancelled'>[],
    session: Session,
  ): Promise<OrderDocument[]> {
    const documents = orders.map((order) => ({ ...order, ...open }));
    if (documents.length > 0) {
      await this.#orders.insertMany(documents, { session });
    }
    return documents;
  }

  async list(
    scope: OrderScope,
    { petId, complete, after, limit }: OrderFilter,
  ): Promise<OrderDocument[]> {
    const filter: Filter<OrderDocument> = { ...scope, cancelled: false };
    if (petId !== undefined) filter.petId = petId;
    if (complete !== undefined) filter.complete = complete;
    return findPage(this.#orders, filter, { after, limit });
  }

  find(scope: OrderScope, id: number) {
    return this.#orders.findOne({ _id: id, ...scope });
  }

  /** Closes the order if it is open: the order as closed, or null when it was not open. */
  closeOpen(
    scope: OrderScope,
    id: number,
    changes: Partial<OrderDocument>,
    session: Session,
  ) {
    return this.#orders.findOneAndUpdate(
      { _id: id, ...scope, ...open },
      { $set: changes },
      { returnDocument: 'after', session },
    );
  }

  moveShipDate(id: number, shipDate: Date) {
    return this.#orders.findOneAndUpdate(
      { _id: id, ...open },
      { $set: { shipDate } },
      { returnDocument: 'after' },
    );
  }
}

/** An instant as the API writes it: ISO 8601 in UTC, without milliseconds when there are none. */
export function toTimestamp(date: Date): string {
  return date.toISOString().replace(/\.000Z$/, 'Z');
}

export function toOrder(document: OrderDocument): PlacedOrder {
  const { _id: id, petId, quantity, shipDate, complete } = document;
  return { id, petId, quantity, shipDate: toTimestamp(shipDate), complete };
}
