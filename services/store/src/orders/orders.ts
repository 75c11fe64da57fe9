// Orders: placing, listing, completing and cancelling them, and the stock each takes or gives back.
import type { NewOrder, OrderUpdate } from '@petstore/contract';
import { AppError, type Caller } from '@petstore/service-kit';
import type { StoredResponse } from '../idempotency/idempotency-repository.js';
import { idempotencyRecordId, type Idempotency } from '../idempotency/idempotency.js';
import { settleHold } from '../inventory/stock-holds.js';
import type { StatusChanges } from '../outbox/status-changes.js';
import { ensurePetExists } from '../pets-service/pet-check.js';
import type { PetsAdapter } from '../pets-service/pets-adapter.js';
import type { Repository } from '../repository.js';
import type { RequestScope } from '../request-scope.js';
import { requireAdmin } from '../require-admin.js';
import { scopeOf, type OrderFilter, type PlacedOrder } from './order-repository.js';
import { toTimestamp } from './timestamps.js';

export interface OrdersDeps {
  repository: Repository;
  pets: PetsAdapter;
  statusChanges: StatusChanges;
  idempotency: Idempotency;
  now: () => Date;
}

export type Orders = ReturnType<typeof createOrders>;

const notFound = (id: number) => new AppError('not_found', `order ${id} not found`);

export function createOrders({ repository, pets, statusChanges, idempotency, now }: OrdersDeps) {
  const { orders, inventory } = repository;

  /**
   * Pet check, stock, order, status push: the steps of placing an order, in that order. The order
   * records `idempotencyKey`, the record of the key it is placed under, when there is one.
   */
  async function takeStockAndStore(
    caller: Caller,
    order: NewOrder,
    idempotencyKey: string | undefined,
    request: RequestScope,
  ): Promise<PlacedOrder> {
    const { petId, quantity } = order;
    await ensurePetExists(pets, inventory, petId, request);
    // The id comes first, so that the stock taken can name the order it was taken for.
    const hold = { petId, orderId: await orders.nextId(), quantity, at: now() };
    if (!(await inventory.take(hold))) {
      throw new AppError('insufficient_stock', `pet ${petId} has fewer than ${quantity} in stock`);
    }
    let placed: PlacedOrder;
    try {
      placed = await orders.insert(hold.orderId, {
        ownerId: caller.accountId,
        petId,
        quantity,
        shipDate: order.shipDate === undefined ? hold.at : new Date(order.shipDate),
        placedAt: hold.at,
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      });
    } catch (error) {
      // Whether the order was stored is unknown (e.g. the database went away with the answer):
      // settle it now if the database lets us, else the hold sweeper will.
      const stored = await settleHold(repository, hold, now()).catch((settleError: unknown) => {
        request.logger.error(
          { err: settleError, ...hold },
          'could not settle the stock of a failed order; the hold sweeper will',
        );
        return undefined;
      });
      if (!stored) throw error;
      placed = stored;
    }
    await inventory.releaseHold(hold).catch((error: unknown) => {
      // The order is stored: the sweeper releases the hold later, the stock stays taken.
      request.logger.warn({ err: error, ...hold }, 'could not release the stock hold of an order');
    });
    await statusChanges.changed(petId, request.logger);
    return placed;
  }

  return {
    list(caller: Caller, filter: OrderFilter): Promise<PlacedOrder[]> {
      return orders.list(scopeOf(caller), filter);
    },

    /** Places the order, once per `Idempotency-Key` when one is given. */
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

    async get(caller: Caller, id: number): Promise<PlacedOrder> {
      const order = await orders.find(scopeOf(caller), id);
      if (!order) throw notFound(id);
      return order;
    },

    /** Completes an order and/or moves its ship date (admin); a complete order keeps its date. */
    async update(
      caller: Caller,
      id: number,
      { complete, shipDate }: OrderUpdate,
      request: RequestScope,
    ): Promise<PlacedOrder> {
      requireAdmin(caller);
      const newShipDate = shipDate === undefined ? undefined : new Date(shipDate);
      let updated: PlacedOrder | undefined;
      if (complete) {
        updated = await orders.completeOpen(id, now(), newShipDate);
        if (updated) await statusChanges.changed(updated.petId, request.logger);
      } else if (newShipDate) {
        updated = await orders.moveShipDate(id, newShipDate);
      }
      if (updated) return updated;

      // Nothing open matched: the order is missing, already complete, or the body is empty.
      const existing = await orders.find({}, id);
      if (!existing) throw notFound(id);
      if (existing.complete && newShipDate && existing.shipDate !== toTimestamp(newShipDate)) {
        throw new AppError('order_complete', `order ${id} is complete; its ship date is final`);
      }
      return existing;
    },

    /**
     * Cancels an open order and gives its quantity back, exactly once: of two racing cancels
     * only the one whose conditional update matched gives stock back; the other sees 404.
     */
    async cancel(caller: Caller, id: number, request: RequestScope): Promise<void> {
      const scope = scopeOf(caller);
      const cancelled = await orders.cancelOpen(scope, id, now());
      if (cancelled) {
        await inventory.giveBack(cancelled.petId, cancelled.quantity, now());
        await statusChanges.changed(cancelled.petId, request.logger);
        return;
      }
      const existing = await orders.find(scope, id);
      if (existing?.complete) {
        throw new AppError('order_complete', `order ${id} is complete and cannot be cancelled`);
      }
      throw notFound(id);
    },
  };
}

/** The order as hashed for `Idempotency-Key`: the same instant written another way is the same. */
function canonicalNewOrder({ petId, quantity, shipDate }: NewOrder) {
  return {
    petId,
    quantity,
    shipDate: shipDate === undefined ? undefined : new Date(shipDate).toISOString(),
  };
}
