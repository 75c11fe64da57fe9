import { storedId, type NewOrder, type OrderUpdate } from '@petstore/contract';
import { AppError, requireAdmin, type Caller, type EventSource } from '@petstore/service-kit';
import { idempotencyRecordId, type Idempotency } from '../idempotency/idempotency.js';
import { closeStock, type StockDeps } from '../inventory/closings.js';
import { settleHold } from '../inventory/stock-holds.js';
import { statusMoved } from '../pet-status.js';
import type { PetCheck } from '../pets-service/pet-check.js';
import type { StoredResponse } from '../repositories/idempotency-repository.js';
import type { OrderFilter, OrderScope, PlacedOrder } from '../repositories/order-repository.js';
import type { RequestScope } from '../request-scope.js';

export interface OrdersDeps extends StockDeps {
  petCheck: PetCheck;
  idempotency: Idempotency;
  events: Pick<EventSource, 'written'>;
}

export type Orders = ReturnType<typeof createOrders>;

const notFound = (id: bigint) => new AppError('not_found', `order ${id} not found`);

function scopeOf(caller: Caller): OrderScope {
  return caller.role === 'admin' ? {} : { ownerId: caller.accountId };
}

/** The order as hashed for `Idempotency-Key`: the same instant written another way is the same. */
function canonicalNewOrder({ petId, quantity, shipDate }: NewOrder) {
  return { petId, quantity, shipDate: shipDate && new Date(shipDate).toISOString() };
}

export function createOrders(deps: OrdersDeps) {
  const { orders, inventory, statusChanges, petCheck, idempotency, events } = deps;

  /** The stock taken names the order it was taken for, so the order's id comes first. */
  async function takeStockAndStore(
    caller: Caller,
    { petId, quantity, shipDate }: NewOrder,
    idempotencyKey: string | undefined,
    request: RequestScope,
  ): Promise<PlacedOrder> {
    await petCheck(petId, request);
    const hold = { petId, orderId: await orders.nextId(), quantity, at: new Date() };
    const taken = await inventory.take(hold);
    if (!taken) {
      throw new AppError('insufficient_stock', `pet ${petId} has fewer than ${quantity} in stock`);
    }
    let placed: PlacedOrder;
    try {
      placed = await orders.insert(hold.orderId, {
        ownerId: caller.accountId,
        petId,
        quantity,
        shipDate: shipDate === undefined ? hold.at : new Date(shipDate),
        placedAt: hold.at,
        ...(idempotencyKey && { idempotencyKey }),
      });
    } catch (error) {
      // Whether the order was stored is unknown: settle it now, or leave it to the hold sweeper.
      const settled = await settleHold(deps, hold).catch((settleError: unknown) => {
        request.logger.error({ err: settleError, ...hold }, 'could not settle a failed order');
        return undefined;
      });
      if (!settled?.stored) throw error;
      placed = settled.stored;
    }
    events.written(placed.id);
    // The response does not wait: until the hold is released, it only says the order may not be
    // stored, and the hold sweeper releases it if this fails.
    inventory.releaseHolds([hold]).catch((error: unknown) => {
      request.logger.warn({ err: error, ...hold }, 'could not release the stock hold of an order');
    });
    if (statusMoved(taken)) await statusChanges.changed(petId, request.logger);
    return placed;
  }

  return {
    list(caller: Caller, filter: OrderFilter): Promise<PlacedOrder[]> {
      return orders.list(scopeOf(caller), filter);
    },

    async place(
      caller: Caller,
      order: NewOrder,
      idempotencyKey: string | undefined,
      request: RequestScope,
    ): Promise<StoredResponse> {
      if (idempotencyKey === undefined) {
        return { status: 201, body: await takeStockAndStore(caller, order, undefined, request) };
      }
      const key = { accountId: caller.accountId, key: idempotencyKey };
      const recordId = idempotencyRecordId(key);
      return idempotency.run(
        { ...key, body: canonicalNewOrder(order) },
        async () => ({
          status: 201,
          body: await takeStockAndStore(caller, order, recordId, request),
        }),
        async (since) => {
          const placed = await orders.findByIdempotencyKey(recordId, since);
          return placed && { status: 201, body: placed };
        },
      );
    },

    async get(caller: Caller, id: bigint): Promise<PlacedOrder> {
      const order = await orders.find(scopeOf(caller), storedId(id));
      if (!order) throw notFound(id);
      return order;
    },

    /** Completes an order and/or moves its ship date; a complete order keeps its date. */
    async update(
      caller: Caller,
      id: bigint,
      { complete, shipDate }: OrderUpdate,
      request: RequestScope,
    ): Promise<PlacedOrder> {
      requireAdmin(caller, 'update an order');
      const orderId = storedId(id);
      const newShipDate = shipDate === undefined ? undefined : new Date(shipDate);
      const updated = complete
        ? await orders.completeOpen(orderId, new Date(), newShipDate)
        : newShipDate && (await orders.moveShipDate(orderId, newShipDate));
      if (updated && complete) {
        events.written(orderId);
        await closeStock(deps, { petId: updated.petId, orderId, quantity: 0 }, request.logger);
      }
      if (updated) return updated;

      // Nothing open matched: the order is missing, complete already, or the body is empty.
      const existing = await orders.findClosed({}, orderId);
      if (!existing || existing.cancelled) throw notFound(id);
      const { order, owed } = existing;
      // A completion retried after its request died between its two writes finishes it.
      if (owed) await closeStock(deps, owed, request.logger);
      if (order.complete && newShipDate && Date.parse(order.shipDate) !== newShipDate.getTime()) {
        throw new AppError('order_complete', `order ${id} is complete; its ship date is final`);
      }
      return order;
    },

    /** Cancels an open order once; a repeat responds as the first did, finishing its stock. */
    async cancel(caller: Caller, id: bigint, request: RequestScope): Promise<void> {
      const scope = scopeOf(caller);
      const orderId = storedId(id);
      const cancelled = await orders.cancelOpen(scope, orderId, new Date());
      if (cancelled) {
        events.written(orderId);
        await closeStock(deps, cancelled, request.logger);
        return;
      }
      const existing = await orders.findClosed(scope, orderId);
      if (!existing) throw notFound(id);
      if (existing.owed) await closeStock(deps, existing.owed, request.logger);
      if (existing.order.complete) {
        throw new AppError('order_complete', `order ${id} is complete and cannot be cancelled`);
      }
    },
  };
}
