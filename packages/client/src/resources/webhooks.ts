import type { ApiPromise } from '../api-promise.js';
import { list, type List } from '../auto-pagination.js';
import { path } from '../path.js';
import type { RequestOptions, RequestSender } from '../request-sender.js';
import type {
  CreatedWebhook,
  Empty,
  ListWebhookDeliveriesQuery,
  ListWebhooksQuery,
  NewWebhook,
  Webhook,
  WebhookDelivery,
  WebhookEvent,
  WebhookPatch,
  WebhookSecret,
  WithRequestId,
} from '../types.js';
import {
  constructEvent,
  type ConstructEventOptions,
  type WebhookBody,
  type WebhookHeaders,
} from '../webhooks.js';

/** Subscriptions that POST signed events to a URL, their deliveries, and checking a delivery. */
export class Webhooks {
  constructor(private readonly sender: RequestSender) {}

  /**
   * Create a webhook
   *
   * The result's `secret` (`whsec_…`) is shown this once: keep it to check deliveries with
   * `constructEvent`. A refused URL is 422 `invalid_webhook_url`.
   * @beta
   * @operationId createWebhook
   */
  create(
    body: NewWebhook,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<CreatedWebhook>> {
    return this.sender.request(
      { method: 'POST', path: '/v2/webhooks', body },
      options,
    );
  }

  /**
   * List webhooks
   *
   * The caller's (an admin's: every account's), oldest first, never a secret.
   * @beta
   * @operationId listWebhooks
   */
  list(query?: ListWebhooksQuery, options?: RequestOptions): List<Webhook> {
    return list(this.sender, { path: '/v2/webhooks', query }, options);
  }

  /**
   * Get a webhook
   *
   * Another account's webhook is 404.
   * @beta
   * @operationId getWebhook
   */
  get(
    id: string,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<Webhook>> {
    return this.sender.request(
      { method: 'GET', path: path`/v2/webhooks/${id}` },
      options,
    );
  }

  /**
   * Update a webhook
   *
   * Its URL, event types, description, or `enabled`.
   * @beta
   * @operationId updateWebhook
   */
  update(
    id: string,
    body: WebhookPatch,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<Webhook>> {
    return this.sender.request(
      { method: 'PATCH', path: path`/v2/webhooks/${id}`, body },
      options,
    );
  }

  /**
   * Delete a webhook
   *
   * Stops every delivery to it, pending retries included.
   * @beta
   * @operationId deleteWebhook
   */
  delete(id: string, options?: RequestOptions): ApiPromise<Empty> {
    return this.sender.requestEmpty(
      { method: 'DELETE', path: path`/v2/webhooks/${id}` },
      options,
    );
  }

  /**
   * Rotate a webhook’s secret
   *
   * The new secret is shown this once; for 24 hours both sign each delivery, so pass both to
   * `constructEvent` while switching.
   * @beta
   * @operationId rotateWebhookSecret
   */
  rotateSecret(
    id: string,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<WebhookSecret>> {
    return this.sender.request(
      { method: 'POST', path: path`/v2/webhooks/${id}/secret` },
      options,
    );
  }

  /**
   * List a webhook’s deliveries
   *
   * Newest first; iterating reads every page.
   * @beta
   * @operationId listWebhookDeliveries
   */
  listDeliveries(
    id: string,
    query?: ListWebhookDeliveriesQuery,
    options?: RequestOptions,
  ): List<WebhookDelivery> {
    return list(
      this.sender,
      { path: path`/v2/webhooks/${id}/deliveries`, query },
      options,
    );
  }

  /**
   * Retry a delivery
   *
   * Schedules another attempt now; the receiver gets the same `webhook-id` again.
   * @beta
   * @operationId retryWebhookDelivery
   */
  retryDelivery(
    id: string,
    deliveryId: string,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<WebhookDelivery>> {
    const spec = {
      method: 'POST',
      path: path`/v2/webhooks/${id}/deliveries/${deliveryId}/retry`,
    } as const;
    return this.sender.request(spec, options);
  }

  /**
   * Send a test event
   *
   * A signed `webhook.test` event to this webhook now, whatever events it lists; resolves to its
   * delivery. A webhook turned off is 409 `conflict`.
   * @beta
   * @operationId testWebhook
   */
  test(
    id: string,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<WebhookDelivery>> {
    return this.sender.request(
      { method: 'POST', path: path`/v2/webhooks/${id}/test` },
      options,
    );
  }

  /**
   * Checks the signature and timestamp of a delivery with Web Crypto and resolves to its event,
   * narrowed by `type`. Pass the body exactly as received (not parsed and serialised again), as
   * text or bytes, the request's headers, and the webhook's secret, or both secrets while one is
   * rotated. Rejects with a PetstoreWebhookError for a delivery that cannot be trusted.
   */
  constructEvent(
    rawBody: WebhookBody,
    headers: WebhookHeaders,
    secret: string | string[],
    options?: ConstructEventOptions,
  ): Promise<WebhookEvent> {
    return constructEvent(rawBody, headers, secret, options);
  }
}
