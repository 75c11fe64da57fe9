import {
  contract,
  storedId,
  type NewOrder,
  type OrderUpdate,
} from '@petstore/contract';
import {
  AppError,
  batched,
  eventMessages,
  keyedRequest,
  newEvent,
  operationOf,
  refusalOf,
  requireAdmin,
  toAppError,
  type Caller,
  type Session,
  type Executed,
  type Idempotency,
  type KeyedRequest,
} from '@petstore/service-kit';
import type { RequestScope } from '../request-scope.js';
import { stockMessages } from '../events.js';
import type { InventoryDeps } from '../inventory/inventory.js';
import type { StockChange } from '../pet-status.js';
import {
  toOrder,
  type OrderDocument,
  type OrderFilter,
  type OrderRepository,
  type OrderScope,
  type PlacedOrder,
} from '../repositories/order-repository.js';

/** The inventory's parts, and the orders and idempotency records. */
export interface OrdersDeps extends InventoryDeps {
  orders: OrderRepository;
  idempotency: Idempotency;
}

export type Orders = ReturnType<typeof createOrders>;

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

/** The orders `quantity` covers, in the order they came. */
function coveredBy(quantity: number, pending: Pending[]): Pending[] {
  let left = quantity;
  return pending.filter(({ order }) => {
    if (order.quantity > left) return false;
    left -= order.quantity;
    return true;
  });
}

function orderDocument({ order, caller, orderId }: Pending, placedAt: Date) {
  const { petId, quantity, shipDate } = order;
  return {
    _id: orderId,
    ownerId: caller.accountId,
    petId,
    quantity,
    placedAt,
    shipDate: shipDate === undefined ? placedAt : new Date(shipDate),
  };
}

export function createOrders(deps: OrdersDeps) {
  const { orders, inventory, idempotency, outbox, petCheck, transaction } =
    deps;

  /**
   * Takes the stock of the orders it covers, in the order they came: of them all in one update
   * when it covers them all, else, once read, of those it covers.
   */
  async function takeStock(
    petId: number,
    candidates: Pending[],
    session: Session,
  ): Promise<{ covered: Pending[]; change?: StockChange }> {
    const asked = (items: Pending[]) => ({
      quantity: items.reduce((sum, { order }) => sum + order.quantity, 0),
      orders: items.length,
    });
    if (candidates.length === 0) return { covered: [] };
    const change = await inventory.take(petId, asked(candidates), session);
    if (change) return { covered: candidates, change };
    const stock = await inventory.find(petId, session);
    const covered = coveredBy(stock?.quantity ?? 0, candidates);
    if (covered.length === 0) return { covered };
    const taken = await inventory.take(petId, asked(covered), session);
    return { covered, change: taken };
  }

  /**
   * Places the orders of one pet that came together in one transaction: the orders, their stock,
   * their messages and their keys' responses, refusals included.
   */
  function placeAll(petId: number, pending: Pending[]) {
    return idempotency.runMany<PlacedOrder>(
      pending.map(({ keyed }) => keyed),
      async (session, executing) => {
        const executed = executing.map((index) => pending[index] as Pending);
        const candidates = executed.filter(({ refusal }) => !refusal);
        const { covered, change } = await takeStock(petId, candidates, session);
        const placedAt = new Date();
        const placed = await orders.insert(
          covered.map((item) => orderDocument(item, placedAt)),
          session,
        );
        const events = eventMessages(
          placed.map((document) =>
            newEvent('order.created', toOrder(document), document.ownerId),
          ),
        );
        const statusPushes = change ? stockMessages(change) : [];
        await outbox.add(session, [...events, ...statusPushes]);
        return executed.map((item) => {
          const document = placed.find(({ _id }) => _id === item.orderId);
          if (document) return { status: 201, body: toOrder(document) };
          return refusalOf(item.refusal ?? insufficientStock(item.order));
        });
      },
    );
  }

  // Every order of a pet writes its stock entry, and concurrent transactions that write one
  // document conflict. So a process writes one transaction of a pet's orders at a time, and the
  // orders that come meanwhile go together into the next. A batch the database could not take (it
  // is down) fails the next alike, so that no order waits longer than one attempt may last.
  const perPet = batched({
    flush: placeAll,
    failsTheNext: (error) => toAppError(error).code === 'service_unavailable',
  });

  async function place(
    order: NewOrder,
    request: PlaceRequest,
  ): Promise<Executed<PlacedOrder>> {
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
        return replayed;
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
    return outcome();
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
      const event = newEvent(type, toOrder(closed), closed.ownerId);
      await outbox.add(session, [...eventMessages([event]), ...stock]);
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
