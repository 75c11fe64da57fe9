// A webhook's deliveries as its account sees them, and a delivery sent again on request.
import type { WebhookDelivery } from '@petstore/contract';
import { AppError, type Caller } from '@petstore/service-kit';
import type { Db } from 'mongodb';
import { after, type Position } from './keyset-page.js';
import {
  webhookCollections,
  type WebhookCollections,
  type WebhookDeliveryDocument,
} from './webhook-collections.js';
import { visibleTo, webhookNotFound } from './webhook-repository.js';

export class DeliveryLog {
  readonly #collections: WebhookCollections;
  readonly #onDeliveryDue: () => void;
  readonly #now: () => Date;

  /** `onDeliveryDue` is called once a delivery is due now, e.g. to wake the delivery worker. */
  constructor(db: Db, onDeliveryDue: () => void, now: () => Date = () => new Date()) {
    this.#collections = webhookCollections(db);
    this.#onDeliveryDue = onDeliveryDue;
    this.#now = now;
  }

  /** The webhook's deliveries, newest first, from after `position`; 404 for a webhook not seen. */
  async list(
    caller: Caller,
    webhookId: string,
    position: Position | undefined,
    limit: number,
  ): Promise<WebhookDelivery[]> {
    await this.#requireVisible(caller, webhookId);
    const documents = await this.#collections.deliveries
      .find({ webhookId, ...after<WebhookDeliveryDocument>(position, 'descending') })
      .sort({ createdAt: -1, _id: -1 })
      .limit(limit)
      .toArray();
    return documents.map(toDelivery);
  }

  /** Makes the delivery due now, whatever its status, and wakes the worker. */
  async retry(caller: Caller, webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
    await this.#requireVisible(caller, webhookId);
    const retried = await this.#collections.deliveries.findOneAndUpdate(
      { _id: deliveryId, webhookId },
      { $set: { status: 'pending', nextAttemptAt: this.#now() } },
      { returnDocument: 'after' },
    );
    if (!retried) throw new AppError('not_found', 'no such delivery of this webhook');
    this.#onDeliveryDue();
    return toDelivery(retried);
  }

  async #requireVisible(caller: Caller, webhookId: string): Promise<void> {
    const found = await this.#collections.webhooks.findOne(visibleTo(caller, webhookId), {
      projection: { _id: 1 },
    });
    if (!found) throw webhookNotFound();
  }
}

function toDelivery(document: WebhookDeliveryDocument): WebhookDelivery {
  return {
    id: document._id,
    eventId: document.eventId,
    type: document.type,
    status: document.status,
    attempts: document.attempts,
    lastStatusCode: document.lastStatusCode,
    nextAttemptAt: document.nextAttemptAt?.toISOString() ?? null,
    createdAt: document.createdAt.toISOString(),
  };
}
