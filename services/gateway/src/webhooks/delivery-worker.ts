import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { Worker, type Logger } from '@petstore/service-kit';
import type { WebhookDeliveryDocument, WebhookDocument } from '../database/collections.js';
import { deliveryAttempts, deliveryLag } from './delivery-metrics.js';
import type { DeliveryRepository } from './delivery-repository.js';
import { nextAttemptAt } from './retry-schedule.js';
import { sendAttempt, type AttemptResult } from './send-attempt.js';
import { unsealSecret } from './webhook-secret.js';

/** Webhooks delivered to at once: a receiver that hangs holds up only its own. */
const MAX_WEBHOOKS = 32;
/** Deliveries sent to one webhook at once. */
const PER_WEBHOOK = 16;
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

export type DeliveryWorker = Pick<Worker, 'start' | 'kick' | 'stop'> & {
  /** Deliveries to these webhooks are due: looks for them unless it is delivering to each. */
  wake(webhookIds: string[]): void;
};

/**
 * Delivers recorded events: claims a webhook with due deliveries (a lease, renewed before each
 * batch) and sends them in batches of up to 16 at once, the longest due first; no order is
 * promised. A failure is tried again by the retry schedule. At least once: a gateway that dies
 * mid-attempt loses its lease, and the next one sends it again.
 */
export function deliveryWorker(
  deliveries: DeliveryRepository,
  settings: DeliverySettings,
  logger: Logger,
): DeliveryWorker {
  const owner = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const inFlight = new Map<string, Promise<void>>();
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
      body: JSON.stringify({ id, type, timestamp: eventAt.toISOString(), data }),
      secrets,
      allowPrivate: settings.allowPrivateUrls,
      timeoutMs: settings.timeoutMs,
    });
  };

  const record = async (delivery: WebhookDeliveryDocument, result: AttemptResult) => {
    const { webhookId, _id: deliveryId } = delivery;
    const log = { webhookId, deliveryId, attempts: delivery.attempts + 1, ...result };
    if (result.ok) {
      deliveryAttempts.inc({ outcome: 'delivered' });
      deliveryLag.observe((Date.now() - delivery.eventAt.getTime()) / 1000);
      await deliveries.delivered(delivery, result.statusCode);
      logger.debug(log, 'webhook delivery delivered');
      return;
    }
    const next = nextAttemptAt(delivery.attempts + 1, settings.retryDelaysMs, new Date());
    deliveryAttempts.inc({ outcome: next === null ? 'failed' : 'retry' });
    if (next === null) logger.warn(log, 'webhook delivery failed for good');
    else logger.info(log, 'webhook delivery attempt failed; will retry');
    if (await deliveries.retryAt(delivery, result, next, settings.disableAfterMs)) {
      logger.warn(
        { webhookId, disableAfterMs: settings.disableAfterMs },
        'webhook disabled: its deliveries have failed for too long',
      );
    }
  };

  /** Sends a batch at once and records each attempt as it ends. */
  const deliverBatch = async (webhook: WebhookDocument, due: WebhookDeliveryDocument[]) => {
    let secrets: string[];
    try {
      secrets = secretsOf(webhook);
    } catch (error) {
      const result = { ok: false, statusCode: null, error: (error as Error).message };
      await Promise.all(due.map((delivery) => record(delivery, result)));
      return;
    }
    await Promise.all(
      due.map(async (delivery) => {
        const result = await attempt(webhook, secrets, delivery);
        if (!abandoned) await record(delivery, result);
      }),
    );
  };

  const deliverTo = async (webhookId: string) => {
    try {
      while (!stopping) {
        const due = await deliveries.nextDue(webhookId, PER_WEBHOOK);
        if (due.length === 0) break;
        const webhook = await deliveries.renewLease(webhookId, owner, settings.leaseMs);
        if (!webhook) return;
        await deliverBatch(webhook, due);
        if (abandoned) return;
      }
      if (!abandoned) await deliveries.releaseWebhook(webhookId, owner);
    } catch (error) {
      // The lease is kept: the webhook is tried again once it runs out, not at once in a loop.
      logger.error({ err: error, webhookId }, 'webhook deliveries: delivering failed');
    }
  };

  const worker = new Worker({
    name: 'webhook-deliveries',
    logger,
    idleMs: settings.pollMs,
    nextDueInMs: () => deliveries.nextDueInMs(owner),
    step: async () => {
      if (inFlight.size >= MAX_WEBHOOKS) return false;
      const webhookId = await deliveries.claimWebhook(owner, settings.leaseMs, inFlight);
      if (webhookId === undefined) return false;
      const delivering = deliverTo(webhookId).finally(() => {
        inFlight.delete(webhookId);
        worker.kick();
      });
      inFlight.set(webhookId, delivering);
      return true;
    },
  });
  return {
    start() {
      stopping = false;
      abandoned = false;
      worker.start();
    },
    kick: () => worker.kick(),
    // A webhook being delivered to here gets its new deliveries from the loop sending them; its
    // end wakes the worker anyway. Looking for due webhooks reads every pending delivery, which
    // pile up behind a receiver that hangs: it is done only when it may find one.
    wake(webhookIds) {
      if (webhookIds.some((webhookId) => !inFlight.has(webhookId))) worker.kick();
    },
    async stop() {
      stopping = true;
      await worker.stop();
      const grace = delay(STOP_GRACE_MS, undefined, { ref: false });
      await Promise.race([Promise.allSettled(inFlight.values()), grace]);
      abandoned = true;
    },
  };
}
