import type { WebhookDelivery } from '@petstore/contract';
import { AppError, type Caller } from '@petstore/service-kit';
import type { Db } from 'mongodb';
import {
  gatewayCollections,
  type GatewayCollections,
  type WebhookDeliveryDocument,
  type WebhookDocument,
} from '../database/collections.js';
import { after, type Position } from './keyset-page.js';
import { visibleTo, webhookNotFound } from './webhook-repository.js';

/**
 * Deliveries as their account sees them, and the queries of the delivery worker: a webhook is
 * delivered to by one gateway at a time, which holds a lease on it (`leaseOwner`, `leaseUntil`).
 */
export class DeliveryRepository {
  readonly #collections: GatewayCollections;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.#collections = gatewayCollections(db);
    this.#now = now;
  }

  /** Newest first; 404 for a webhook the caller may not see. */
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

  /** Makes the delivery due now, whatever its status. */
  async retry(caller: Caller, webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
    await this.#requireVisible(caller, webhookId);
    const retried = await this.#collections.deliveries.findOneAndUpdate(
      { _id: deliveryId, webhookId },
      { $set: { status: 'pending', nextAttemptAt: this.#now() } },
      { returnDocument: 'after' },
    );
    if (!retried) throw new AppError('not_found', 'no such delivery of this webhook');
    return toDelivery(retried);
  }

  /** Leases one enabled webhook of `candidates` whose lease is free or ran out. */
  claimWebhook(
    candidates: string[],
    owner: string,
    leaseMs: number,
  ): Promise<WebhookDocument | null> {
    const now = this.#now();
    return this.#collections.webhooks.findOneAndUpdate(
      {
        _id: { $in: candidates },
        enabled: true,
        $or: [{ leaseUntil: { $exists: false } }, { leaseUntil: { $lt: now } }],
      },
      { $set: { leaseOwner: owner, leaseUntil: new Date(now.getTime() + leaseMs) } },
      { returnDocument: 'after' },
    );
  }

  /** Null when the lease was lost, or the webhook disabled or deleted. */
  renewLease(webhookId: string, owner: string, leaseMs: number): Promise<WebhookDocument | null> {
    return this.#collections.webhooks.findOneAndUpdate(
      { _id: webhookId, leaseOwner: owner, enabled: true },
      { $set: { leaseUntil: new Date(this.#now().getTime() + leaseMs) } },
      { returnDocument: 'after' },
    );
  }

  async releaseWebhook(webhookId: string, owner: string): Promise<void> {
    await this.#collections.webhooks.updateOne(
      { _id: webhookId, leaseOwner: owner },
      { $unset: { leaseOwner: '', leaseUntil: '' } },
    );
  }

  /** The webhooks with deliveries due now. */
  dueWebhooks(): Promise<string[]> {
    return this.#collections.deliveries.distinct('webhookId', {
      status: 'pending',
      nextAttemptAt: { $lte: this.#now() },
    });
  }

  /** The webhook's oldest delivery due now. */
  nextDue(webhookId: string): Promise<WebhookDeliveryDocument | null> {
    return this.#collections.deliveries.findOne(
      { webhookId, status: 'pending', nextAttemptAt: { $lte: this.#now() } },
      { sort: { nextAttemptAt: 1, eventAt: 1 } },
    );
  }

  /** When the next retry falls due, or another gateway's lease runs out. */
  async nextDueInMs(owner: string): Promise<number | undefined> {
    const now = this.#now();
    const [retry, lease] = await Promise.all([
      this.#collections.deliveries.findOne(
        { status: 'pending', nextAttemptAt: { $gt: now } },
        { sort: { nextAttemptAt: 1 }, projection: { nextAttemptAt: 1 } },
      ),
      this.#collections.webhooks.findOne(
        { leaseUntil: { $gt: now }, leaseOwner: { $ne: owner } },
        { sort: { leaseUntil: 1 }, projection: { leaseUntil: 1 } },
      ),
    ]);
    const times = [retry?.nextAttemptAt, lease?.leaseUntil].flatMap((time) =>
      time ? [time.getTime()] : [],
    );
    return times.length === 0 ? undefined : Math.min(...times) - now.getTime();
  }

  eventOf(delivery: WebhookDeliveryDocument) {
    return this.#collections.events.findOne({ _id: delivery.eventId });
  }

  /** Records a successful attempt, unless another gateway recorded this attempt meanwhile. */
  async delivered(delivery: WebhookDeliveryDocument, statusCode: number | null): Promise<void> {
    const now = this.#now();
    await this.#collections.deliveries.updateOne(attemptOf(delivery), {
      $set: {
        status: 'delivered',
        attempts: delivery.attempts + 1,
        lastStatusCode: statusCode,
        lastError: null,
        nextAttemptAt: null,
        deliveredAt: now,
      },
    });
    await this.#collections.webhooks.updateOne(
      { _id: delivery.webhookId, failingSince: { $ne: null } },
      { $set: { failingSince: null } },
    );
  }

  /**
   * Records a failed attempt, to be tried again at `next` (null: failed for good); true when it
   * disabled the webhook, failing for `failingFor` ms without a success.
   */
  async retryAt(
    delivery: WebhookDeliveryDocument,
    { statusCode, error }: { statusCode: number | null; error?: string },
    next: Date | null,
    failingFor: number,
  ): Promise<boolean> {
    const now = this.#now();
    const { deliveries, webhooks } = this.#collections;
    await deliveries.updateOne(attemptOf(delivery), {
      $set: {
        status: next === null ? 'failed' : 'pending',
        attempts: delivery.attempts + 1,
        lastStatusCode: statusCode,
        lastError: error ?? null,
        nextAttemptAt: next,
      },
    });
    const webhookId = delivery.webhookId;
    await webhooks.updateOne(
      { _id: webhookId, failingSince: null },
      { $set: { failingSince: now } },
    );
    const disabled = await webhooks.updateOne(
      {
        _id: webhookId,
        enabled: true,
        failingSince: { $lte: new Date(now.getTime() - failingFor) },
      },
      { $set: { enabled: false, updatedAt: now } },
    );
    return disabled.modifiedCount === 1;
  }

  /**
   * Fails the due deliveries of `candidates` that are disabled or deleted, so that they are not
   * found due again and again (a retry asks for them once more).
   */
  async dropUndeliverable(candidates: string[]): Promise<void> {
    const { webhooks, deliveries } = this.#collections;
    const enabled = await webhooks
      .find({ _id: { $in: candidates }, enabled: true }, { projection: { _id: 1 } })
      .toArray();
    const live = new Set(enabled.map(({ _id }) => _id));
    const gone = candidates.filter((id) => !live.has(id));
    if (gone.length === 0) return;
    await deliveries.updateMany(
      { webhookId: { $in: gone }, status: 'pending', nextAttemptAt: { $lte: this.#now() } },
      {
        $set: {
          status: 'failed',
          lastError: 'the webhook is disabled or deleted',
          nextAttemptAt: null,
        },
      },
    );
  }

  /**
   * Deletes the deliveries that ended before `cutoff` (by the event's time), then the events no
   * pending delivery still needs.
   */
  async sweep(cutoff: Date): Promise<{ deliveries: number; events: number }> {
    const { events, deliveries } = this.#collections;
    const ended = await deliveries.deleteMany({
      eventAt: { $lt: cutoff },
      status: { $in: ['delivered', 'failed'] },
    });
    const needed = await deliveries.distinct('eventId', {
      eventAt: { $lt: cutoff },
      status: 'pending',
    });
    const old = await events.deleteMany({ timestamp: { $lt: cutoff }, _id: { $nin: needed } });
    return { deliveries: ended.deletedCount, events: old.deletedCount };
  }

  async #requireVisible(caller: Caller, webhookId: string): Promise<void> {
    const found = await this.#collections.webhooks.findOne(visibleTo(caller, webhookId), {
      projection: { _id: 1 },
    });
    if (!found) throw webhookNotFound();
  }
}

/** The delivery as the attempt found it: an attempt another gateway recorded matches nothing. */
function attemptOf({ _id, attempts }: WebhookDeliveryDocument) {
  return { _id, status: 'pending' as const, attempts };
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
