import type { ApiPromise } from '../api-promise.js';
import { list, type List } from '../auto-pagination.js';
import { path } from '../path.js';
import type { RequestOptions, RequestSender } from '../request-sender.js';
import type {
  Empty,
  ListOrdersQuery,
  NewOrder,
  Order,
  OrderUpdate,
  WithRequestId,
} from '../types.js';

/** The caller's orders (an admin's: every order). */
export class Orders {
  constructor(private readonly sender: RequestSender) {}

  /**
   * List orders
   *
   * In id order; iterating reads every page.
   * @operationId listOrders
   */
  list(query?: ListOrdersQuery, options?: RequestOptions): List<Order> {
    return list(this.sender, { path: '/v2/store/orders', query }, options);
  }

  /**
   * Place an order
   *
   * Sent with an `Idempotency-Key` (`options.idempotencyKey`, else a generated one), so a retry
   * never places a second order. More than the stock is 409 `insufficient_stock`.
   * @operationId placeOrder
   */
  create(
    body: NewOrder,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<Order>> {
    const spec = { method: 'POST', path: '/v2/store/orders', body } as const;
    return this.sender.request(spec, options);
  }

  /**
   * Get an order
   *
   * Another account's order is 404.
   * @operationId getOrder
   */
  get(id: number, options?: RequestOptions): ApiPromise<WithRequestId<Order>> {
    return this.sender.request(
      { method: 'GET', path: path`/v2/store/orders/${id}` },
      options,
    );
  }

  /**
   * Update an order
   *
   * Completes it or moves its ship date; needs an admin key.
   * @operationId updateOrder
   */
  update(
    id: number,
    body: OrderUpdate,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<Order>> {
    const spec = {
      method: 'PATCH',
      path: path`/v2/store/orders/${id}`,
      body,
    } as const;
    return this.sender.request(spec, options);
  }

  /**
   * Cancel an order
   *
   * Its quantity goes back to stock; a complete order is 409 `order_complete`.
   * @operationId cancelOrder
   */
  cancel(id: number, options?: RequestOptions): ApiPromise<Empty> {
    return this.sender.requestEmpty(
      { method: 'DELETE', path: path`/v2/store/orders/${id}` },
      options,
    );
  }
}
