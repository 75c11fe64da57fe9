import { storedId, type NewOrder, type OrderUpdate } from '@petstore/contract';
import {
  AppError,
  requireAdmin,
  type Batched,
  type Caller,
  type EventSource,
} from '@petstore/service-kit';
import type { Idempotency } from '../idempotency/idempotency.js';
import { closeStock, type StockDeps } from '../inventory/closings.js';
import { settleHold } from '../inventory/stock-holds.js';
import { statusMoved } from '../pet-status.js';
import type { PetCheck, RequestScope } from '../pets-service/pet-check.js';
import type { StoredResponse } from '../repositories/idempotency-repository.js';
import type { OrderMark } from '../repositories/inventory-repository.js';
import type { OrderFilter, OrderScope, PlacedOrder } from '../repositories/order-repository.js';

export interface OrdersDeps extends StockDeps {
  petCheck: PetCheck;
  idempotency: Idempotency;
  events: Pick<EventSource, 'written'>;
  /** Releases the holds of stored orders, several in one write. */
  holdReleases: Pick<Batched<OrderMark>, 'add'>;
}

export type Orders = ReturnType<typeof createOrders>;

const notFound = (id: bigint) => new AppError('not_found', `order ${id} not found`);

function scopeOf(caller: Caller): OrderScope {
  return caller.role === 'admin' ? {} : { ownerId: caller.accountId };
}

export function createOrders(deps: OrdersDeps) {
  const { orders, inventory, statusChanges, petCheck, idempotency, events, holdReleases } = deps;

  async function place(caller: Caller, order: NewOrder, request: RequestScope, key?: string) {
    const { petId, quantity, shipDate } = order;
    await petCheck(petId, request);
    // The stock taken names the order it was taken for, so the id comes first.
    const hold = { petId, orderId: await orders.nextId(), quantity, at: new Date() };
    const taken = await inventory.take(hold);
    if (!taken) {
      throw new AppError('insufficient_stock', `pet ${petId} has fewer than ${quantity} in stock`);
    }
    const placing = orders.toInsert(hold.orderId, {
      ownerId: caller.accountId,
      petId,
      quantity,
      placedAt: hold.at,
      shipDate: shipDate === undefined ? hold.at : new Date(shipDate),
      ...(key && { idempotencyKey: key }),
    });
    try {
      await orders.insert(placing);
    } catch (error) {
      // Whether the order was stored is unknown: settle it now, or leave it to the hold sweeper.
      const stored = await settleHold(deps, hold, request.log).catch((settleError: unknown) => {
        request.log.error({ err: settleError, ...hold }, 'could not settle a failed order');
      });
      if (!stored) throw error;
    }
    const { order: placed, event } = placing;
    events.written(placed.id, [event]);
    // Not awaited: a hold left behind (a release lost with its process, or one that failed) only
    // says the order may not be stored; the hold sweeper finds the order and releases it.
    holdReleases.add(hold).catch((error: unknown) => {
      request.log.warn({ err: error, ...hold }, 'could not release the stock hold of an order');
    });
    if (statusMoved(taken)) await statusChanges.changed(petId, request.log);
    return { status: 201 as const, body: placed };
  }

  /** The order no open one matched, after finishing what a dead request left of its closing. */
  async function closed(scope: OrderScope, id: bigint, request: RequestScope) {
    const found = await orders.find(scope, storedId(id));
    if (!found) throw notFound(id);
    if (found.owed) await closeStock(deps, found.owed, request.log);
    return found;
  }

  return {
    list(caller: Caller, filter: OrderFilter): Promise<PlacedOrder[]> {
      return orders.list(scopeOf(caller), filter);
    },

    async place(caller: Caller, order: NewOrder, request: RequestScope, key?: string) {
      if (key === undefined) return place(caller, order, request);
      // The same instant written another way is the same request.
      const shipDate = order.shipDate && new Date(order.shipDate).toISOString();
      return idempotency.run(
        { accountId: caller.accountId, key, body: { ...order, shipDate } },
        (recordId) => place(caller, order, request, recordId),
        async (recordId, since): Promise<StoredResponse | undefined> => {
          const placed = await orders.findByIdempotencyKey(recordId, since);
          return placed && { status: 201, body: placed };
        },
      );
    },

    async get(caller: Caller, id: bigint): Promise<PlacedOrder> {
      const found = await orders.find(scopeOf(caller), storedId(id));
      if (!found || found.cancelled) throw notFound(id);
      return found.order;
    },

    async update(caller: Caller, id: bigint, body: OrderUpdate, request: RequestScope) {
      requireAdmin(caller, 'update an order');
      const orderId = storedId(id);
      const shipDate = body.shipDate === undefined ? undefined : new Date(body.shipDate);
      if (body.complete) {
        const completed = await orders.completeOpen(orderId, new Date(), shipDate);
        if (completed) {
          const { order, event } = completed;
          events.written(orderId, [event]);
          await closeStock(deps, { petId: order.petId, orderId, quantity: 0 }, request.log);
          return order;
        }
      } else if (shipDate) {
        const moved = await orders.moveShipDate(orderId, shipDate);
        if (moved) return moved;
      }
      // It is missing, complete already, or the body is empty.
      const { order, cancelled } = await closed({}, id, request);
      if (cancelled) throw notFound(id);
      if (order.complete && shipDate && Date.parse(order.shipDate) !== shipDate.getTime()) {
        throw new AppError('order_complete', `order ${id} is complete; its ship date is final`);
      }
      return order;
    },

    /** Cancels an open order once; a repeat responds as the first did. */
    async cancel(caller: Caller, id: bigint, request: RequestScope): Promise<void> {
      const scope = scopeOf(caller);
      const cancelled = await orders.cancelOpen(scope, storedId(id), new Date());
      if (cancelled) {
        const { closing, event } = cancelled;
        events.written(closing.orderId, [event]);
        await closeStock(deps, closing, request.log);
      } else if ((await closed(scope, id, request)).order.complete) {
        throw new AppError('order_complete', `order ${id} is complete and cannot be cancelled`);
      }
    },
  };
}
