import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { registry, Worker, type Logger } from '@petstore/service-kit';
import { Counter, Histogram } from 'prom-client';
import type {
  WebhookDeliveryDocument,
  WebhookDocument,
} from '../database/collections.js';
import type { DeliveryRepository } from './delivery-repository.js';
import { failure, sendAttempt, type AttemptResult } from './send-attempt.js';
import { unsealSecret } from './webhook-secret.js';

/** Webhooks delivered to at once: a receiver that hangs delays only its own. */
const MAX_WEBHOOKS = 32;
const PER_WEBHOOK = 16;
/** How long stopping waits for the attempts in flight before it leaves them to their leases. */
const STOP_GRACE_MS = 1_000;
/** How long a webhook with nothing due is kept for the next event before its lease is released. */
const LINGER_MS = 250;

export const deliveryLag = new Histogram({
  name: 'petstore_webhook_delivery_lag_seconds',
  help: 'From an event to the receiver taking its delivery.',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 3600],
  registers: [registry],
});

export const deliveryAttempts = new Counter({
  name: 'petstore_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts: delivered, retry (failed, to be tried again) or failed (for good).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** So that retries that failed together spread out. */
const JITTER = 0.2;

/** `delaysMs[attempts - 1]` from `now`, ± 20 %; null once the schedule is spent. */
export function nextAttemptAt(
  attempts: number,
  delaysMs: readonly number[],
  now: Date,
  random: () => number = Math.random,
): Date | null {
  const delayMs = delaysMs[attempts - 1];
  if (delayMs === undefined) return null;
  const jittered = delayMs * (1 - JITTER + 2 * JITTER * random());
  return new Date(now.getTime() + Math.round(jittered));
}

export interface DeliverySettings {
  allowPrivateUrls: boolean;
  secretsKey: Buffer;
  retryDelaysMs: readonly number[];
  disableAfterMs: number;
  pollMs: number;
  leaseMs: number;
  timeoutMs: number;
}

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
) {
  const owner = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const inFlight = new Map<string, Promise<void>>();
  // The webhooks waiting with nothing due, each with what wakes its loop.
  const waiting = new Map<string, AbortController>();
  /** Whether an event for the webhook came within `LINGER_MS`. */
  const nextEvent = async (webhookId: string) => {
    const woken = new AbortController();
    waiting.set(webhookId, woken);
    const { signal } = woken;
    const came = await delay(LINGER_MS, false, { signal }).catch(() => true);
    waiting.delete(webhookId);
    return came;
  };
  // Once stopping has waited enough, an attempt that ends is left unrecorded, as if it died.
  let stopping = false;
  let abandoned = false;

  const record = async (
    webhook: WebhookDocument,
    delivery: WebhookDeliveryDocument,
    result: AttemptResult,
  ) => {
    const { webhookId, _id: deliveryId, attempts } = delivery;
    const { retryDelaysMs, disableAfterMs } = settings;
    const log = { webhookId, deliveryId, attempts: attempts + 1, ...result };
    const next = result.ok
      ? null
      : nextAttemptAt(attempts + 1, retryDelaysMs, new Date());
    const outcome = next === null ? 'failed' : 'retry';
    deliveryAttempts.inc({ outcome: result.ok ? 'delivered' : outcome });
    if (result.ok)
      deliveryLag.observe((Date.now() - delivery.eventAt.getTime()) / 1000);
    const wasFailing = webhook.failingSince !== null;
    const disabled = await deliveries.attempted(
      delivery,
      result,
      next,
      disableAfterMs,
      wasFailing,
    );
    if (result.ok) logger.debug(log, 'webhook delivery delivered');
    else if (next === null)
      logger.warn(log, 'webhook delivery failed for good');
    else logger.info(log, 'webhook delivery attempt failed; will retry');
    if (disabled) {
      logger.warn(
        { webhookId, disableAfterMs },
        'webhook disabled: its deliveries have failed for too long',
      );
    }
  };

  const deliverBatch = async (
    webhook: WebhookDocument,
    due: WebhookDeliveryDocument[],
  ) => {
    const now = new Date();
    const secrets = Promise.resolve().then(() =>
      webhook.secrets
        .filter(({ expiresAt }) => expiresAt === null || expiresAt > now)
        .map(({ sealed }) => unsealSecret(sealed, settings.secretsKey)),
    );
    await Promise.all(
      due.map(async (delivery) => {
        const { eventId, type, eventAt, data } = delivery;
        const timestamp = eventAt.toISOString();
        const body = JSON.stringify({ id: eventId, type, timestamp, data });
        const result = await secrets.then(
          (signing) =>
            sendAttempt({
              url: webhook.url,
              eventId,
              timestamp: Math.floor(Date.now() / 1000),
              body,
              secrets: signing,
              allowPrivate: settings.allowPrivateUrls,
              timeoutMs: settings.timeoutMs,
            }),
          failure,
        );
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
    /** Deliveries to these webhooks are due: looks for them unless it is delivering to each. */
    // A webhook being delivered to here gets its new deliveries from the loop sending them, waiting
    // or not; its end wakes the worker anyway. Looking for due webhooks reads every pending
    // delivery, which pile up behind a receiver that hangs: it is done only when it may find one.
    wake(webhookIds: string[]) {
      for (const webhookId of webhookIds) waiting.get(webhookId)?.abort();
      if (webhookIds.some((webhookId) => !inFlight.has(webhookId)))
        worker.kick();
    },
    async stop() {
      stopping = true;
      for (const woken of waiting.values()) woken.abort();
      await worker.stop();
      const grace = delay(STOP_GRACE_MS, undefined, { ref: false });
      await Promise.race([Promise.allSettled(inFlight.values()), grace]);
      abandoned = true;
    },
  };
}
