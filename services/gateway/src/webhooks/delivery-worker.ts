import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { Worker, type Logger } from '@petstore/service-kit';
import type { WebhookDeliveryDocument, WebhookDocument } from '../database/collections.js';
import type { DeliveryRepository } from './delivery-repository.js';
import { nextAttemptAt } from './retry-schedule.js';
import { sendAttempt, type AttemptResult } from './send-attempt.js';
import { unsealSecret } from './webhook-secret.js';

/** Webhooks delivered to at once: a receiver that hangs holds up only its own. */
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

export type DeliveryWorker = Pick<Worker, 'start' | 'kick' | 'stop'> & {
  /** Deliveries to these webhooks are due: looks for them unless it is delivering to each. */
  wake(webhookIds: string[]): void;
};

/**
 * Delivers recorded events: claims a webhook with due deliveries (a lease, renewed before each
 * attempt) and sends them oldest first; a failure is tried again by the retry schedule. At least
 * once: a gateway that dies mid-attempt loses its lease, and the next one sends it again.
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

  const attempt = async (webhook: WebhookDocument, delivery: WebhookDeliveryDocument) => {
    const event = await deliveries.eventOf(delivery);
    if (!event) return { ok: false, statusCode: null, error: 'the event is no longer recorded' };
    const now = new Date();
    let secrets: string[];
    try {
      secrets = webhook.secrets
        .filter(({ expiresAt }) => expiresAt === null || expiresAt > now)
        .map(({ sealed }) => unsealSecret(sealed, settings.secretsKey));
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
      allowPrivate: settings.allowPrivateUrls,
      timeoutMs: settings.timeoutMs,
    });
  };

  const record = async (delivery: WebhookDeliveryDocument, result: AttemptResult) => {
    const { webhookId, _id: deliveryId } = delivery;
    const log = { webhookId, deliveryId, attempts: delivery.attempts + 1, ...result };
    if (result.ok) {
      await deliveries.delivered(delivery, result.statusCode);
      logger.debug(log, 'webhook delivery delivered');
      return;
    }
    const next = nextAttemptAt(delivery.attempts + 1, settings.retryDelaysMs, new Date());
    if (next === null) logger.warn(log, 'webhook delivery failed for good');
    else logger.info(log, 'webhook delivery attempt failed; will retry');
    if (await deliveries.retryAt(delivery, result, next, settings.disableAfterMs)) {
      logger.warn(
        { webhookId, disableAfterMs: settings.disableAfterMs },
        'webhook disabled: its deliveries have failed for too long',
      );
    }
  };

  const deliverTo = async (webhookId: string) => {
    try {
      while (!stopping) {
        const delivery = await deliveries.nextDue(webhookId);
        if (!delivery) break;
        const webhook = await deliveries.renewLease(webhookId, owner, settings.leaseMs);
        if (!webhook) return;
        const result = await attempt(webhook, delivery);
        if (abandoned) return;
        await record(delivery, result);
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
      if (inFlight.size >= MAX_IN_FLIGHT) return false;
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
