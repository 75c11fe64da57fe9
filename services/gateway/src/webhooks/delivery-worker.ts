import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Worker, type Logger } from '@petstore/service-kit';
import type { Db } from 'mongodb';
import { nextAttemptAt } from './retry-schedule.js';
import { sendAttempt, type AttemptResult } from './send-attempt.js';
import {
  webhookCollections,
  type WebhookCollections,
  type WebhookDeliveryDocument,
  type WebhookDocument,
} from './webhook-collections.js';
import { unsealSecret } from './webhook-secret.js';

/** Webhooks delivered to at once by one worker: a receiver that hangs holds up only its own. */
const MAX_IN_FLIGHT = 8;
/** How long stopping waits for the attempts in flight before it leaves them to their leases. */
const STOP_GRACE_MS = 1_000;

export interface DeliverySettings {
  allowPrivateUrls: boolean;
  secretsKey: Buffer;
  retryDelaysMs: readonly number[];
  disableAfterMs: number;
  pollMs: number;
  leaseMs: number;
  timeoutMs: number;
}

export interface DeliveryWorkerOptions {
  db: Db;
  logger: Logger;
  settings: DeliverySettings;
  now?: () => Date;
}

/**
 * Delivers recorded events to their webhooks, in the background of every gateway. A webhook is
 * delivered to by one gateway at a time, which holds a lease on it (renewed before each attempt):
 * its due deliveries go out oldest first; a failure is tried again later by the retry schedule,
 * and a webhook failing for `disableAfterMs` is disabled. At least once: a gateway that dies
 * mid-attempt loses its lease, and the next to claim the webhook sends that delivery again.
 */
export class DeliveryWorker {
  readonly #collections: WebhookCollections;
  readonly #logger: Logger;
  readonly #settings: DeliverySettings;
  readonly #now: () => Date;
  /**
   * Who holds a lease: this worker, for as long as the process runs. The host and pid say which
   * gateway is delivering to a webhook, to whoever reads `leaseOwner`.
   */
  readonly #owner = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #worker: Worker;
  /** Set by `stop()`: no attempt is started. */
  #stopping = false;
  /** Set once stopping has waited enough: an attempt that ends after it is not recorded. */
  #abandoned = false;

  constructor({ db, logger, settings, now = () => new Date() }: DeliveryWorkerOptions) {
    this.#collections = webhookCollections(db);
    this.#logger = logger;
    this.#settings = settings;
    this.#now = now;
    this.#worker = new Worker({
      name: 'webhook-deliveries',
      logger,
      idleMs: settings.pollMs,
      step: () => this.#claimNext(),
      nextDueInMs: () => this.#nextDueInMs(),
    });
  }

  start(): void {
    this.#stopping = false;
    this.#abandoned = false;
    this.#worker.start();
  }

  /** Looks for due deliveries now, e.g. once events were recorded or a retry was asked for. */
  kick(): void {
    this.#worker.kick();
  }

  /**
   * Claims no more webhooks and waits a moment for the attempts in flight; those still going
   * after it are abandoned unrecorded, as if the process had died, and sent again after their
   * leases.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    await this.#worker.stop();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(this.#inFlight.values()),
      new Promise((resolve) => (timer = setTimeout(resolve, STOP_GRACE_MS))),
    ]);
    clearTimeout(timer);
    this.#abandoned = true;
  }

  /** Claims one webhook with due deliveries and starts delivering to it; true when it did. */
  async #claimNext(): Promise<boolean> {
    if (this.#inFlight.size >= MAX_IN_FLIGHT) return false;
    const { webhooks, deliveries } = this.#collections;
    const now = this.#now();
    const due = await deliveries.distinct('webhookId', {
      status: 'pending',
      nextAttemptAt: { $lte: now },
    });
    const candidates = due.filter((id) => !this.#inFlight.has(id));
    if (candidates.length === 0) return false;
    const webhook = await webhooks.findOneAndUpdate(
      {
        _id: { $in: candidates },
        enabled: true,
        $or: [{ leaseUntil: { $exists: false } }, { leaseUntil: { $lt: now } }],
      },
      { $set: { leaseOwner: this.#owner, leaseUntil: this.#leaseEnd(now) } },
      { returnDocument: 'after' },
    );
    if (!webhook) {
      await this.#dropUndeliverable(candidates, now);
      return false;
    }
    const delivering = this.#deliverTo(webhook._id).finally(() => {
      this.#inFlight.delete(webhook._id);
      this.kick();
    });
    this.#inFlight.set(webhook._id, delivering);
    return true;
  }

  /** Sends a claimed webhook's due deliveries, oldest first, while its lease holds. */
  async #deliverTo(webhookId: string): Promise<void> {
    try {
      while (!this.#stopping) {
        const delivery = await this.#nextDue(webhookId);
        if (!delivery) break;
        const webhook = await this.#renewLease(webhookId);
        // Lost to another gateway, disabled or deleted meanwhile.
        if (!webhook) return;
        const result = await this.#attempt(webhook, delivery);
        if (this.#abandoned) return;
        await this.#record(webhook, delivery, result);
      }
      if (!this.#abandoned) await this.#release(webhookId);
    } catch (error) {
      // The lease is kept: the webhook is tried again once it runs out, not at once in a loop.
      this.#logger.error({ err: error, webhookId }, 'webhook deliveries: delivering failed');
    }
  }

  #nextDue(webhookId: string): Promise<WebhookDeliveryDocument | null> {
    return this.#collections.deliveries.findOne(
      { webhookId, status: 'pending', nextAttemptAt: { $lte: this.#now() } },
      { sort: { nextAttemptAt: 1, eventAt: 1 } },
    );
  }

  #renewLease(webhookId: string): Promise<WebhookDocument | null> {
    return this.#collections.webhooks.findOneAndUpdate(
      { _id: webhookId, leaseOwner: this.#owner, enabled: true },
      { $set: { leaseUntil: this.#leaseEnd(this.#now()) } },
      { returnDocument: 'after' },
    );
  }

  async #release(webhookId: string): Promise<void> {
    await this.#collections.webhooks.updateOne(
      { _id: webhookId, leaseOwner: this.#owner },
      { $unset: { leaseOwner: '', leaseUntil: '' } },
    );
  }

  async #attempt(
    webhook: WebhookDocument,
    delivery: WebhookDeliveryDocument,
  ): Promise<AttemptResult> {
    const event = await this.#collections.events.findOne({ _id: delivery.eventId });
    if (!event) return { ok: false, statusCode: null, error: 'the event is no longer recorded' };
    const now = this.#now();
    let secrets: string[];
    try {
      secrets = webhook.secrets
        .filter(({ expiresAt }) => expiresAt === null || expiresAt > now)
        .map(({ sealed }) => unsealSecret(sealed, this.#settings.secretsKey));
    } catch (error) {
      return { ok: false, statusCode: null, error: (error as Error).message };
    }
    const { _id: id, type, timestamp, data } = event;
    return sendAttempt({
      url: webhook.url,
      eventId: id,
      timestamp: Math.floor(now.getTime() / 1000),
      body: JSON.stringify({ id, type, timestamp: timestamp.toISOString(), data }),
      secrets,
      allowPrivate: this.#settings.allowPrivateUrls,
      timeoutMs: this.#settings.timeoutMs,
    });
  }

  /** Records how the attempt went, unless another gateway recorded this attempt meanwhile. */
  async #record(
    webhook: WebhookDocument,
    delivery: WebhookDeliveryDocument,
    { ok, statusCode, error }: AttemptResult,
  ): Promise<void> {
    const { webhooks, deliveries } = this.#collections;
    const now = this.#now();
    const attempts = delivery.attempts + 1;
    const filter = { _id: delivery._id, status: 'pending' as const, attempts: delivery.attempts };
    const log = { webhookId: webhook._id, deliveryId: delivery._id, attempts, statusCode, error };
    if (ok) {
      await deliveries.updateOne(filter, {
        $set: {
          status: 'delivered',
          attempts,
          lastStatusCode: statusCode,
          lastError: null,
          nextAttemptAt: null,
          deliveredAt: now,
        },
      });
      await webhooks.updateOne(
        { _id: webhook._id, failingSince: { $ne: null } },
        { $set: { failingSince: null } },
      );
      this.#logger.debug(log, 'webhook delivery delivered');
      return;
    }
    const next = nextAttemptAt(attempts, this.#settings.retryDelaysMs, now);
    await deliveries.updateOne(filter, {
      $set: {
        status: next === null ? 'failed' : 'pending',
        attempts,
        lastStatusCode: statusCode,
        lastError: error ?? null,
        nextAttemptAt: next,
      },
    });
    if (next === null) this.#logger.warn(log, 'webhook delivery failed for good');
    else this.#logger.info(log, 'webhook delivery attempt failed; will retry');
    await webhooks.updateOne(
      { _id: webhook._id, failingSince: null },
      { $set: { failingSince: now } },
    );
    await this.#disableWhenFailingTooLong(webhook._id, now);
  }

  async #disableWhenFailingTooLong(webhookId: string, now: Date): Promise<void> {
    const since = new Date(now.getTime() - this.#settings.disableAfterMs);
    const disabled = await this.#collections.webhooks.updateOne(
      { _id: webhookId, enabled: true, failingSince: { $lte: since } },
      { $set: { enabled: false, updatedAt: now } },
    );
    if (disabled.modifiedCount === 1) {
      this.#logger.warn(
        { webhookId, disableAfterMs: this.#settings.disableAfterMs },
        'webhook disabled: its deliveries have failed for too long',
      );
    }
  }

  /**
   * The due deliveries of webhooks that were disabled or deleted are not sent: they fail, so
   * that they are not found due again and again (a retry asks for them once more).
   */
  async #dropUndeliverable(candidates: string[], now: Date): Promise<void> {
    const { webhooks, deliveries } = this.#collections;
    const enabled = await webhooks
      .find({ _id: { $in: candidates }, enabled: true }, { projection: { _id: 1 } })
      .toArray();
    const live = new Set(enabled.map(({ _id }) => _id));
    const gone = candidates.filter((id) => !live.has(id));
    if (gone.length === 0) return;
    await deliveries.updateMany(
      { webhookId: { $in: gone }, status: 'pending', nextAttemptAt: { $lte: now } },
      {
        $set: {
          status: 'failed',
          lastError: 'the webhook is disabled or deleted',
          nextAttemptAt: null,
        },
      },
    );
  }

  /** When the next retry falls due, or another gateway's lease runs out. */
  async #nextDueInMs(): Promise<number | undefined> {
    const { webhooks, deliveries } = this.#collections;
    const now = this.#now();
    const [retry, lease] = await Promise.all([
      deliveries.findOne(
        { status: 'pending', nextAttemptAt: { $gt: now } },
        { sort: { nextAttemptAt: 1 }, projection: { nextAttemptAt: 1 } },
      ),
      webhooks.findOne(
        { leaseUntil: { $gt: now }, leaseOwner: { $ne: this.#owner } },
        { sort: { leaseUntil: 1 }, projection: { leaseUntil: 1 } },
      ),
    ]);
    const times = [retry?.nextAttemptAt, lease?.leaseUntil].flatMap((time) =>
      time ? [time.getTime()] : [],
    );
    return times.length === 0 ? undefined : Math.min(...times) - now.getTime();
  }

  #leaseEnd(now: Date): Date {
    return new Date(now.getTime() + this.#settings.leaseMs);
  }
}
