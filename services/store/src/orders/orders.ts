import {
  contract,
  storedId,
  type NewOrder,
  type OrderUpdate,
} from '@petstore/contract';
import {
  AppError,
  keyedRequest,
  operationOf,
  requireAdmin,
  toAppError,
  type Caller,
  type Executed,
  type Idempotency,
  type Outbox,
  type Session,
  type Transaction,
} from '@petstore/service-kit';
import { orderEvent, stockMessages } from '../events.js';
import type { PetCheck } from '../pets-service/pet-check.js';
import type { RequestScope } from '../request-scope.js';
import { oneAtATime } from './one-at-a-time.js';
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

const notFound = (id: bigint) =>
  new AppError('not_found', `order ${id} not found`);

const everyOrder: OrderScope = {};

function scopeOf(caller: Caller): OrderScope {
  return caller.role === 'admin' ? everyOrder : { ownerId: caller.accountId };
}

export function createOrders(deps: OrdersDeps) {
  const { orders, inventory, idempotency, outbox, petCheck, transaction } =
    deps;
  // Every order of a pet writes its stock entry, and concurrent transactions that write one
  // document conflict: all but one abort and start again. This process places a pet's orders one
  // after another instead; orders of other pets, and of other processes, still run alongside. An
  // order the database could not take (it is down) fails those waiting behind it alike, so that
  // none waits its turn for longer than its own attempt may last.
  const perPet = oneAtATime<number>(
    (error) => toAppError(error).code === 'service_unavailable',
  );

  /**
   * Stores the order and its messages, and takes the stock. The stock entry, which every order of
   * the pet writes, is written last, so that it is locked only until the commit: orders of one pet
   * wait on each other that long, no longer. Short stock aborts it all.
   */
  async function placeIn(
    session: Session,
    {
      order,
      caller,
      orderId,
    }: { order: NewOrder; caller: Caller; orderId: number },
  ) {
    const { petId, quantity, shipDate } = order;
    const placedAt = new Date();
    const stored = await orders.insert(
      {
        _id: orderId,
        ownerId: caller.accountId,
        petId,
        quantity,
        placedAt,
        shipDate: shipDate === undefined ? placedAt : new Date(shipDate),
      },
      session,
    );
    const change = await inventory.take(petId, quantity, session);
    if (!change) {
      throw new AppError(
        'insufficient_stock',
        `pet ${petId} has fewer than ${quantity} in stock`,
      );
    }
    await outbox.add(session, [
      ...orderEvent('order.created', {
        order: toOrder(stored),
        ownerId: stored.ownerId,
      }),
      ...stockMessages(change),
    ]);
    return { status: 201, body: toOrder(stored) };
  }

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
    const outcome = await perPet(order.petId, () =>
      idempotency.run<PlacedOrder>(keyed, async (session) => {
        if (refusal) throw refusal;
        return placeIn(session, { order, caller, orderId });
      }),
    );
    return placed(outcome);
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
