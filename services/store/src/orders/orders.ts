import {
  contract,
  storedId,
  type NewOrder,
  type OrderUpdate,
} from '@petstore/contract';
import {
  AppError,
  batched,
  keyedRequest,
  operationOf,
  refusalOf,
  requireAdmin,
  type Caller,
  type Executed,
  type Idempotency,
  type KeyedRequest,
  type Outbox,
  type Session,
  type Transaction,
} from '@petstore/service-kit';
import { orderEvent, stockMessages } from '../events.js';
import type { PetCheck } from '../pets-service/pet-check.js';
import type { RequestScope } from '../request-scope.js';
import type { StockChange } from '../pet-status.js';
import type { InventoryRepository } from '../repositories/inventory-repository.js';
import {
  toOrder,
  type OrderDocument,
  type OrderFilter,
  type OrderRepository,
  type OrderScope,
  type PlacedOrder,
} from '../repositories/order-repository.js';

export interface OrdersDeps {
  orders: OrderRepository;
  inventory: InventoryRepository;
  idempotency: Idempotency;
  outbox: Outbox;
  petCheck: PetCheck;
  /** Runs `work` in one transaction of the store's database. */
  transaction: Transaction;
}

export type Orders = ReturnType<typeof createOrders>;

/** The order placed under the request, `replayed` when an earlier request with its key placed it. */
export type Placed = { order: PlacedOrder; replayed: boolean };

export interface PlaceRequest extends RequestScope {
  /** The `Idempotency-Key` header, when sent. */
  idempotencyKey?: string;
}

const insufficientStock = ({ petId, quantity }: NewOrder) =>
  new AppError(
    'insufficient_stock',
    `pet ${petId} has fewer than ${quantity} in stock`,
  );

const notFound = (id: bigint) =>
  new AppError('not_found', `order ${id} not found`);

const everyOrder: OrderScope = {};

function scopeOf(caller: Caller): OrderScope {
  return caller.role === 'admin' ? everyOrder : { ownerId: caller.accountId };
}

/** An order on its way into its pet's next batch. */
interface Pending {
  order: NewOrder;
  caller: Caller;
  keyed?: KeyedRequest;
  /** The id it takes if placed; a refused order takes none. */
  orderId: number;
  /** Why it is refused already (its pet is unknown). */
  refusal?: AppError;
}

export function createOrders(deps: OrdersDeps) {
  const { orders, inventory, idempotency, outbox, petCheck, transaction } =
    deps;

  /**
   * The stock of as many of `placed` as it covers, in order: all of them in one update when it
   * covers them all, else, after reading it, those it covers; the others are deleted again.
   */
  async function takeStock(
    petId: number,
    placed: OrderDocument[],
    session: Session,
  ): Promise<{ taken: OrderDocument[]; change?: StockChange }> {
    const count = (documents: OrderDocument[]) => ({
      quantity: documents.reduce((sum, { quantity }) => sum + quantity, 0),
      orders: documents.length,
    });
    if (placed.length === 0) return { taken: [] };
    const change = await inventory.take(petId, count(placed), session);
    if (change) return { taken: placed, change };
    const stock = await inventory.find(petId, session);
    let left = stock?.quantity ?? 0;
    const taken = placed.filter(({ quantity }) => {
      if (quantity > left) return false;
      left -= quantity;
      return true;
    });
    const uncovered = placed.filter((document) => !taken.includes(document));
    await orders.remove(uncovered, session);
    if (taken.length === 0) return { taken };
    return {
      taken,
      change: await inventory.take(petId, count(taken), session),
    };
  }

  /**
   * Places the orders of one pet that came together in one transaction: the orders, their stock,
   * their messages and their keys' responses, refusals included. The stock entry, which every
   * order of the pet writes, is written after the orders, so that it is locked only until the
   * commit: the pet's orders in other processes wait on it that long, no longer.
   */
  function placeAll(petId: number, pending: Pending[]) {
    const keyed = pending.map((item) => item.keyed);
    return idempotency.runMany<PlacedOrder>(
      keyed,
      async (session, executing) => {
        const executed = executing.map((index) => pending[index] as Pending);
        const placedAt = new Date();
        const placing = executed.filter((item) => !item.refusal);
        const placed = await orders.insert(
          placing.map(({ order, caller, orderId }) => ({
            _id: orderId,
            ownerId: caller.accountId,
            petId,
            quantity: order.quantity,
            placedAt,
            shipDate:
              order.shipDate === undefined
                ? placedAt
                : new Date(order.shipDate),
          })),
          session,
        );
        const { taken, change } = await takeStock(petId, placed, session);
        const events = taken.flatMap((document) =>
          orderEvent('order.created', {
            order: toOrder(document),
            ownerId: document.ownerId,
          }),
        );
        const stock = change ? stockMessages(change) : [];
        await outbox.add(session, [...events, ...stock]);
        return executed.map((item) => {
          const document = taken.find(({ _id }) => _id === item.orderId);
          if (document) return { status: 201, body: toOrder(document) };
          return refusalOf(item.refusal ?? insufficientStock(item.order));
        });
      },
    );
  }

  const perPet = batched({ flush: placeAll });

  async function place(
    order: NewOrder,
    request: PlaceRequest,
  ): Promise<Placed> {
    const { caller, requestId, idempotencyKey } = request;
    // The same instant written another way is the same request.
    const shipDate = order.shipDate && new Date(order.shipDate).toISOString();
    const keyed = keyedRequest(caller.accountId, idempotencyKey, {
      operation: operationOf(contract.v2.orders.placeOrder),
      body: { ...order, shipDate },
    });
    let refusal: AppError | undefined;
    try {
      await petCheck(order.petId, requestId);
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'unknown_pet')) {
        // Pets cannot say whether the pet exists, so nothing executes: a key answers what
        // executed under it before, if anything did.
        const replayed =
          keyed && (await idempotency.replay<PlacedOrder>(keyed));
        if (!replayed) throw error;
        return placed(replayed);
      }
      refusal = error;
    }
    // A refused order takes no id.
    const orderId = refusal ? 0 : await orders.nextId();
    const outcome = await perPet(order.petId, {
      order,
      caller,
      keyed,
      orderId,
      refusal,
    });
    return placed(await outcome());
  }

  /** Closes an open order in one transaction with its stock and messages; undefined if not open. */
  async function close(
    scope: OrderScope,
    id: number,
    changes: Partial<OrderDocument>,
  ): Promise<OrderDocument | undefined> {
    return transaction(async (session) => {
      const closed = await orders.closeOpen(scope, id, changes, session);
      if (!closed) return undefined;
      const returned = closed.cancelled ? closed.quantity : 0;
      const change = await inventory.close(closed.petId, returned, session);
      const type = closed.cancelled ? 'order.cancelled' : 'order.completed';
      const stock = change ? stockMessages(change) : [];
      const event = orderEvent(type, {
        order: toOrder(closed),
        ownerId: closed.ownerId,
      });
      await outbox.add(session, [...event, ...stock]);
      return closed;
    });
  }

  return {
    place,

    async list(caller: Caller, filter: OrderFilter): Promise<PlacedOrder[]> {
      return (await orders.list(scopeOf(caller), filter)).map(toOrder);
    },

    async get(caller: Caller, id: bigint): Promise<PlacedOrder> {
      const found = await orders.find(scopeOf(caller), storedId(id));
      if (!found || found.cancelled) throw notFound(id);
      return toOrder(found);
    },

    async update(
      caller: Caller,
      id: bigint,
      body: OrderUpdate,
    ): Promise<PlacedOrder> {
      requireAdmin(caller, 'update an order');
      const orderId = storedId(id);
      const shipDate =
        body.shipDate === undefined ? undefined : new Date(body.shipDate);
      if (body.complete) {
        const changes = {
          complete: true,
          completedAt: new Date(),
          ...(shipDate && { shipDate }),
        };
        const completed = await close(everyOrder, orderId, changes);
        if (completed) return toOrder(completed);
      } else if (shipDate) {
        const moved = await orders.moveShipDate(orderId, shipDate);
        if (moved) return toOrder(moved);
      }
      // It is missing, cancelled, complete already, or the body is empty.
      const found = await orders.find(everyOrder, orderId);
      if (!found || found.cancelled) throw notFound(id);
      const shipDateMoves =
        shipDate && found.shipDate.getTime() !== shipDate.getTime();
      if (found.complete && shipDateMoves) {
        throw new AppError(
          'order_complete',
          `order ${id} is complete; its ship date is final`,
        );
      }
      return toOrder(found);
    },

    /** Cancels an open order once; a repeat answers as the first did. */
    async cancel(caller: Caller, id: bigint): Promise<void> {
      const scope = scopeOf(caller);
      const orderId = storedId(id);
      const cancelled = await close(scope, orderId, {
        cancelled: true,
        cancelledAt: new Date(),
      });
      if (cancelled) return;
      const found = await orders.find(scope, orderId);
      if (!found) throw notFound(id);
      if (found.complete) {
        throw new AppError(
          'order_complete',
          `order ${id} is complete and cannot be cancelled`,
        );
      }
    },
  };
}

function placed({ body, replayed }: Executed<PlacedOrder>): Placed {
  return { order: body, replayed };
}
