// Orders: placing, listing, completing and cancelling them, and the stock each takes or gives back.
import { storedId, type NewOrder, type OrderUpdate } from '@petstore/contract';
import { AppError, type Caller } from '@petstore/service-kit';
import type { StoredResponse } from '../idempotency/idempotency-repository.js';
import { idempotencyRecordId, type Idempotency } from '../idempotency/idempotency.js';
import { closeStock } from '../inventory/closings.js';
import { statusMoved } from '../inventory/pet-status.js';
import { settleHold } from '../inventory/stock-holds.js';
import type { StatusChanges } from '../outbox/status-changes.js';
import type { PetCheck } from '../pets-service/pet-check.js';
import type { Repository } from '../repository.js';
import type { RequestScope } from '../request-scope.js';
import { requireAdmin } from '../require-admin.js';
import { scopeOf, type OrderFilter, type PlacedOrder } from './order-repository.js';
import { toTimestamp } from './timestamps.js';

export interface OrdersDeps {
  repository: Repository;
  petCheck: PetCheck;
  statusChanges: StatusChanges;
  idempotency: Idempotency;
  now: () => Date;
}

export type Orders = ReturnType<typeof createOrders>;

const notFound = (id: bigint) => new AppError('not_found', `order ${id} not found`);

export function createOrders({
  repository,
  petCheck,
  statusChanges,
  idempotency,
  now,
}: OrdersDeps) {
  const { orders, inventory } = repository;

  /**
   * Pet check, stock, order, status push: the steps of placing an order, in that order. The order
   * records `idempotencyKey`, the record of the key it is placed under, when there is one. Three
   * database commands in the store when nothing is cold (take, insert, release), a fourth only
   * when the pet's status moves (the stock reaching zero).
   */
  async function takeStockAndStore(
    caller: Caller,
    order: NewOrder,
    idempotencyKey: string | undefined,
    request: RequestScope,
  ): Promise<PlacedOrder> {
    const { petId, quantity } = order;
    await petCheck(petId, request);
    // The id comes first, so that the stock taken can name the order it was taken for.
    const hold = { petId, orderId: await orders.nextId(), quantity, at: now() };
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
        shipDate: order.shipDate === undefined ? hold.at : new Date(order.shipDate),
        placedAt: hold.at,
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      });
    } catch (error) {
      // Whether the order was stored is unknown (e.g. the database went away with the answer):
      // settle it now if the database lets us, else the hold sweeper will.
      const settled = await settleHold(repository, hold, now()).catch((settleError: unknown) => {
        request.logger.error(
          { err: settleError, ...hold },
          'could not settle the stock of a failed order; the hold sweeper will',
        );
        return undefined;
      });
      if (!settled?.stored) throw error;
      placed = settled.stored;
    }
    // The answer does not wait for the hold's release: until it is done (or, if it fails, until
    // the hold sweeper does it) the hold only says the order may not be stored, and it is.
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

    async get(caller: Caller, id: bigint): Promise<PlacedOrder> {
      const order = await orders.find(scopeOf(caller), storedId(id));
      if (!order) throw notFound(id);
      return order;
    },

    /** Completes an order and/or moves its ship date (admin); a complete order keeps its date. */
    async update(
      caller: Caller,
      id: bigint,
      { complete, shipDate }: OrderUpdate,
      request: RequestScope,
    ): Promise<PlacedOrder> {
      requireAdmin(caller);
      const orderId = storedId(id);
      const newShipDate = shipDate === undefined ? undefined : new Date(shipDate);
      let updated: PlacedOrder | undefined;
      if (complete) {
        updated = await orders.completeOpen(orderId, now(), newShipDate);
        if (updated) {
          const closing = { petId: updated.petId, orderId, quantity: 0 };
          await closeStock(repository, statusChanges, closing, now(), request.logger);
        }
      } else if (newShipDate) {
        updated = await orders.moveShipDate(orderId, newShipDate);
      }
      if (updated) return updated;

      // Nothing open matched: the order is missing, already complete, or the body is empty.
      const existing = await orders.findClosed({}, orderId);
      if (!existing || existing.cancelled) throw notFound(id);
      const { order, owed } = existing;
      // A completion retried after its first request died between its writes finishes it.
      if (owed) await closeStock(repository, statusChanges, owed, now(), request.logger);
      if (order.complete && newShipDate && order.shipDate !== toTimestamp(newShipDate)) {
        throw new AppError('order_complete', `order ${id} is complete; its ship date is final`);
      }
      return order;
    },

    /**
     * Cancels an open order and gives its quantity back, exactly once (see `closeStock`). A
     * DELETE of an order already cancelled answers as the first did, and finishes the stock's
     * part if the first request died before it.
     */
    async cancel(caller: Caller, id: bigint, request: RequestScope): Promise<void> {
      const scope = scopeOf(caller);
      const orderId = storedId(id);
      const cancelled = await orders.cancelOpen(scope, orderId, now());
      if (cancelled) {
        await closeStock(repository, statusChanges, cancelled, now(), request.logger);
        return;
      }
      const existing = await orders.findClosed(scope, orderId);
      if (!existing) throw notFound(id);
      if (existing.owed) {
        await closeStock(repository, statusChanges, existing.owed, now(), request.logger);
      }
      if (existing.order.complete) {
        throw new AppError('order_complete', `order ${id} is complete and cannot be cancelled`);
      }
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
