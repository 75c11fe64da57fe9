import {
  WebhookDeliverySchema,
  type WebhookDelivery,
} from '@petstore/contract';
import {
  AppError,
  findPage,
  Lease,
  type Caller,
  type Session,
  type TimePage,
} from '@petstore/service-kit';
import type { Db } from 'mongodb';
import {
  gatewayCollections,
  visibleTo,
  type GatewayCollections,
  type WebhookDeliveryDocument,
  type WebhookDocument,
} from '../database/collections.js';
import type { AttemptResult } from './send-attempt.js';
import { webhookNotFound } from './webhook-repository.js';

const WEBHOOK_LEASE = new Lease<WebhookDocument>({
  owner: 'leaseOwner',
  until: 'leaseUntil',
});

/** Deliveries waiting for an attempt that is due at `now`. */
const dueAt = (now: Date) => ({
  status: 'pending' as const,
  nextAttemptAt: { $lte: now },
});

/**
 * Deliveries as their account sees them, and the queries of the delivery worker: a webhook is
 * delivered to by one gateway at a time, which has a lease on it (`leaseOwner`, `leaseUntil`).
 */
export class DeliveryRepository {
  readonly #collections: GatewayCollections;

  /** `retentionMs`: how long after its event a delivery that ended is kept. */
  constructor(
    db: Db,
    private readonly retentionMs: number,
  ) {
    this.#collections = gatewayCollections(db);
  }

  /** Newest first. */
  async list(
    caller: Caller,
    webhookId: string,
    page: TimePage,
  ): Promise<WebhookDelivery[]> {
    await this.#requireVisible(caller, webhookId);
    const { deliveries } = this.#collections;
    return (await findPage(deliveries, { webhookId }, page, 'descending')).map(
      toDelivery,
    );
  }

  async retry(
    caller: Caller,
    webhookId: string,
    deliveryId: string,
    session: Session,
  ): Promise<WebhookDelivery> {
    await this.#requireVisible(caller, webhookId, session);
    const retried = await this.#collections.deliveries.findOneAndUpdate(
      { _id: deliveryId, webhookId },
      {
        $set: { status: 'pending', nextAttemptAt: new Date() },
        $unset: { expireAt: '' },
      },
      { returnDocument: 'after', session },
    );
    if (!retried)
      throw new AppError('not_found', 'no such delivery of this webhook');
    return toDelivery(retried);
  }

  async insert(
    delivery: WebhookDeliveryDocument,
    session: Session,
  ): Promise<WebhookDelivery> {
    await this.#collections.deliveries.insertOne(delivery, { session });
    return toDelivery(delivery);
  }

  /**
   * Leases a webhook with deliveries due now, not one of `busy`, whose lease is free or ran out,
   * and returns it. The due deliveries of disabled or deleted webhooks fail, not to be found due
   * again.
   */
  async claimWebhook(
    owner: string,
    leaseMs: number,
    busy: ReadonlyMap<string, unknown>,
  ) {
    const { webhooks, deliveries } = this.#collections;
    const now = new Date();
    const due = dueAt(now);
    const candidates = (await deliveries.distinct('webhookId', due)).filter(
      (id) => !busy.has(id),
    );
    if (candidates.length === 0) return undefined;
    const claimed = await webhooks.findOneAndUpdate(
      {
        _id: { $in: candidates },
        enabled: true,
        ...WEBHOOK_LEASE.free(now),
      },
      { $set: WEBHOOK_LEASE.take(owner, leaseMs, now) },
      { returnDocument: 'after' },
    );
    if (claimed) return claimed;
    const enabled = await webhooks.distinct('_id', {
      _id: { $in: candidates },
      enabled: true,
    });
    const gone = candidates.filter((id) => !enabled.includes(id));
    if (gone.length === 0) return undefined;
    const lastError = 'the webhook is disabled or deleted';
    const expireAt = { $add: ['$eventAt', this.retentionMs] };
    await deliveries.updateMany({ webhookId: { $in: gone }, ...due }, [
      { $set: { status: 'failed', lastError, nextAttemptAt: null, expireAt } },
    ]);
    return undefined;
  }

  renewLease(
    webhookId: string,
    owner: string,
    leaseMs: number,
  ): Promise<WebhookDocument | null> {
    return this.#collections.webhooks.findOneAndUpdate(
      { _id: webhookId, ...WEBHOOK_LEASE.heldBy(owner), enabled: true },
      { $set: WEBHOOK_LEASE.take(owner, leaseMs) },
      { returnDocument: 'after' },
    );
  }

  async releaseWebhook(webhookId: string, owner: string): Promise<void> {
    await this.#collections.webhooks.updateOne(
      { _id: webhookId, ...WEBHOOK_LEASE.heldBy(owner) },
      { $unset: WEBHOOK_LEASE.released() },
    );
  }

  /** Up to `limit` of the webhook's deliveries due now, the longest due first. */
  nextDue(
    webhookId: string,
    limit: number,
  ): Promise<WebhookDeliveryDocument[]> {
    return this.#collections.deliveries
      .find({ webhookId, ...dueAt(new Date()) })
      .sort({ nextAttemptAt: 1 })
      .limit(limit)
      .toArray();
  }

  /** The pending deliveries of each webhook that has any. */
  async backlog(): Promise<Record<string, number>> {
    const counts = await this.#collections.deliveries
      .aggregate<{ _id: string; pending: number }>([
        { $match: { status: 'pending' } },
        { $group: { _id: '$webhookId', pending: { $sum: 1 } } },
      ])
      .toArray();
    return Object.fromEntries(counts.map(({ _id, pending }) => [_id, pending]));
  }

  /** When the next retry falls due, or another gateway's lease runs out. */
  async nextDueInMs(owner: string): Promise<number | undefined> {
    const now = new Date();
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
    const times = [retry?.nextAttemptAt, lease?.leaseUntil].flatMap(
      (at) => at?.getTime() ?? [],
    );
    return times.length === 0 ? undefined : Math.min(...times) - now.getTime();
  }

  /**
   * Records an attempt; matches nothing once another gateway recorded it. `next`: when a failed
   * delivery is tried again, null once it failed for good. A delivery that ended is removed by the
   * database once its event is `retentionMs` old. Returns true when the webhook is disabled, failing
   * for `failingFor`; `wasFailing`: it was failing when it was read.
   */
  async attempted(
    { _id, attempts, eventAt, webhookId }: WebhookDeliveryDocument,
    { ok, statusCode, error }: AttemptResult,
    next: Date | null,
    failingFor: number,
    wasFailing: boolean,
  ): Promise<boolean> {
    const now = new Date();
    const retried = next === null ? ('failed' as const) : ('pending' as const);
    const status = ok ? ('delivered' as const) : retried;
    const expireAt = new Date(eventAt.getTime() + this.retentionMs);
    await this.#collections.deliveries.updateOne(
      { _id, status: 'pending', attempts },
      {
        $set: {
          status,
          nextAttemptAt: next,
          attempts: attempts + 1,
          lastStatusCode: statusCode,
          lastError: error ?? null,
          ...(status === 'pending' ? {} : { expireAt }),
          ...(ok ? { deliveredAt: now } : {}),
        },
      },
    );
    const { webhooks } = this.#collections;
    if (ok && wasFailing) {
      await webhooks.updateOne(
        { _id: webhookId, failingSince: { $ne: null } },
        { $set: { failingSince: null } },
      );
    }
    if (ok) return false;
    await webhooks.updateOne(
      { _id: webhookId, failingSince: null },
      { $set: { failingSince: now } },
    );
    const failingTooLong = { $lte: new Date(now.getTime() - failingFor) };
    const disabled = await webhooks.updateOne(
      { _id: webhookId, enabled: true, failingSince: failingTooLong },
      { $set: { enabled: false, updatedAt: now } },
    );
    return disabled.modifiedCount === 1;
  }

  async #requireVisible(
    caller: Caller,
    webhookId: string,
    session?: Session,
  ): Promise<void> {
    const found = await this.#collections.webhooks.findOne(
      visibleTo(caller, webhookId),
      { projection: { _id: 1 }, session },
    );
    if (!found) throw webhookNotFound();
  }
}

function toDelivery(document: WebhookDeliveryDocument): WebhookDelivery {
  return WebhookDeliverySchema.parse({
    ...document,
    id: document._id,
    nextAttemptAt: document.nextAttemptAt?.toISOString() ?? null,
    createdAt: document.createdAt.toISOString(),
  });
}
