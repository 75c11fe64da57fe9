import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { Worker, type Logger } from '@petstore/service-kit';
import type {
  WebhookDeliveryDocument,
  WebhookDocument,
} from '../database/collections.js';
import { deliveryAttempts, deliveryLag } from './delivery-metrics.js';
import type { DeliveryRepository } from './delivery-repository.js';
import { nextAttemptAt } from './retry-schedule.js';
import { sendAttempt, type AttemptResult } from './send-attempt.js';
import { unsealSecret } from './webhook-secret.js';

/** Webhooks delivered to at once: a receiver that hangs delays only its own. */
const MAX_WEBHOOKS = 32;
/** Deliveries sent to one webhook at once. */
const PER_WEBHOOK = 16;
/** How long stopping waits for the attempts in flight before it leaves them to their leases. */
const STOP_GRACE_MS = 1_000;
/** How long a webhook with nothing due is kept for the next event before its lease is released. */
const LINGER_MS = 250;

export interface DeliverySettings {
  allowPrivateUrls: boolean;
  secretsKey: Buffer;
  retryDelaysMs: readonly number[];
  disableAfterMs: number;
  pollMs: number;
  leaseMs: number;
  timeoutMs: number;
}

export type DeliveryWorker = Pick<Worker, 'start' | 'kick' | 'stop'> & {
  /** Deliveries to these webhooks are due: looks for them unless it is delivering to each. */
  wake(webhookIds: string[]): void;
};

/**
 * Delivers recorded events: claims a webhook with due deliveries (a lease, renewed before each
 * batch) and sends them in batches of up to 16 at once, the longest due first; no order is
 * promised. A webhook's loop waits 250 ms after its last batch, so that a steady stream of
 * events costs no claim each. A failure is tried again by the retry schedule. At least once: a
 * gateway that dies mid-attempt loses its lease, and the next one sends it again.
 */
export function deliveryWorker(
  deliveries: DeliveryRepository,
  settings: DeliverySettings,
  logger: Logger,
): DeliveryWorker {
  const owner = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const inFlight = new Map<string, Promise<void>>();
  // The webhooks waiting with nothing due, each with what wakes its loop.
  const waiting = new Map<string, () => void>();
  /** Whether an event for the webhook came within `LINGER_MS`. */
  const nextEvent = (webhookId: string) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(webhookId);
        resolve(false);
      }, LINGER_MS);
      waiting.set(webhookId, () => {
        clearTimeout(timer);
        waiting.delete(webhookId);
        resolve(true);
      });
    });
  // Once stopping has waited enough, an attempt that ends is left unrecorded, as if it died.
  let stopping = false;
  let abandoned = false;

  const secretsOf = (webhook: WebhookDocument) => {
    const now = new Date();
    return webhook.secrets
      .filter(({ expiresAt }) => expiresAt === null || expiresAt > now)
      .map(({ sealed }) => unsealSecret(sealed, settings.secretsKey));
  };

  const attempt = (
    webhook: WebhookDocument,
    secrets: string[],
    delivery: WebhookDeliveryDocument,
  ) => {
    const { eventId: id, type, eventAt, data } = delivery;
    return sendAttempt({
      url: webhook.url,
      eventId: id,
      timestamp: Math.floor(Date.now() / 1000),
      body: JSON.stringify({
        id,
        type,
        timestamp: eventAt.toISOString(),
        data,
      }),
      secrets,
      allowPrivate: settings.allowPrivateUrls,
      timeoutMs: settings.timeoutMs,
    });
  };

  const record = async (
    webhook: WebhookDocument,
    delivery: WebhookDeliveryDocument,
    result: AttemptResult,
  ) => {
    const { webhookId, _id: deliveryId } = delivery;
    const log = {
      webhookId,
      deliveryId,
      attempts: delivery.attempts + 1,
      ...result,
    };
    if (result.ok) {
      deliveryAttempts.inc({ outcome: 'delivered' });
      deliveryLag.observe((Date.now() - delivery.eventAt.getTime()) / 1000);
      const wasFailing = webhook.failingSince !== null;
      await deliveries.delivered(delivery, {
        statusCode: result.statusCode,
        wasFailing,
      });
      logger.debug(log, 'webhook delivery delivered');
      return;
    }
    const next = nextAttemptAt(
      delivery.attempts + 1,
      settings.retryDelaysMs,
      new Date(),
    );
    deliveryAttempts.inc({ outcome: next === null ? 'failed' : 'retry' });
    if (next === null) logger.warn(log, 'webhook delivery failed for good');
    else logger.info(log, 'webhook delivery attempt failed; will retry');
    if (
      await deliveries.retryAt(delivery, result, next, settings.disableAfterMs)
    ) {
      logger.warn(
        { webhookId, disableAfterMs: settings.disableAfterMs },
        'webhook disabled: its deliveries have failed for too long',
      );
    }
  };

  /** Sends a batch at once and records each attempt as it ends. */
  const deliverBatch = async (
    webhook: WebhookDocument,
    due: WebhookDeliveryDocument[],
  ) => {
    let secrets: string[];
    try {
      secrets = secretsOf(webhook);
    } catch (error) {
      const result = {
        ok: false,
        statusCode: null,
        error: (error as Error).message,
      };
      await Promise.all(
        due.map((delivery) => record(webhook, delivery, result)),
      );
      return;
    }
    await Promise.all(
      due.map(async (delivery) => {
        const result = await attempt(webhook, secrets, delivery);
        if (!abandoned) await record(webhook, delivery, result);
      }),
    );
  };

  const deliverTo = async (claimed: WebhookDocument) => {
    const webhookId = claimed._id;
    let webhook: WebhookDocument | null = claimed;
    try {
      for (let batch = 0; !stopping; batch++) {
        const due = await deliveries.nextDue(webhookId, PER_WEBHOOK);
        if (due.length === 0 && (await nextEvent(webhookId))) continue;
        if (due.length === 0) break;
        // The claim was the first renewal; each later batch renews it, and reads the webhook again.
        if (batch > 0)
          webhook = await deliveries.renewLease(
            webhookId,
            owner,
            settings.leaseMs,
          );
        if (!webhook) return;
        await deliverBatch(webhook, due);
        if (abandoned) return;
      }
      if (!abandoned) await deliveries.releaseWebhook(webhookId, owner);
    } catch (error) {
      // The lease is kept: the webhook is tried again once it runs out, not at once in a loop.
      logger.error(
        { err: error, webhookId },
        'webhook deliveries: delivering failed',
      );
    }
  };

  const worker = new Worker({
    name: 'webhook-deliveries',
    logger,
    idleMs: settings.pollMs,
    nextDueInMs: () => deliveries.nextDueInMs(owner),
    step: async () => {
      if (inFlight.size >= MAX_WEBHOOKS) return false;
      const webhook = await deliveries.claimWebhook(
        owner,
        settings.leaseMs,
        inFlight,
      );
      if (webhook === undefined) return false;
      const delivering = deliverTo(webhook).finally(() => {
        inFlight.delete(webhook._id);
        worker.kick();
      });
      inFlight.set(webhook._id, delivering);
      return true;
    },
  });
  return {
    start() {
      stopping = false;
      abandoned = false;
      worker.start();
    },
    kick: () => {
      worker.kick();
    },
    // A webhook being delivered to here gets its new deliveries from the loop sending them, waiting
    // or not; its end wakes the worker anyway. Looking for due webhooks reads every pending
    // delivery, which pile up behind a receiver that hangs: it is done only when it may find one.
    wake(webhookIds) {
      for (const webhookId of webhookIds) waiting.get(webhookId)?.();
      if (webhookIds.some((webhookId) => !inFlight.has(webhookId)))
        worker.kick();
    },
    async stop() {
      stopping = true;
      for (const wakeUp of waiting.values()) wakeUp();
      await worker.stop();
      const grace = delay(STOP_GRACE_MS, undefined, { ref: false });
      await Promise.race([Promise.allSettled(inFlight.values()), grace]);
      abandoned = true;
    },
  };
}
