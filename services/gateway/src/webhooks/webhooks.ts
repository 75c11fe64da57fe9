import {
  customerEventTypes,
  type CreatedWebhook,
  type NewWebhook,
  type Role,
  type Webhook,
  type WebhookEventType,
  type WebhookDelivery,
  type WebhookPatch,
} from '@petstore/contract';
import {
  AppError,
  timeOrderedId,
  type Caller,
  type Session,
} from '@petstore/service-kit';
import type { SealedSecret } from '../database/collections.js';
import { newWebhookId } from '../database/ids.js';
import { checkWebhookUrl } from './url-policy.js';
import type { DeliveryRepository } from './delivery-repository.js';
import { newDelivery } from './event-recorder.js';
import {
  webhookNotFound,
  type WebhookRepository,
} from './webhook-repository.js';
import { newWebhookSecret, sealSecret } from './webhook-secret.js';

export interface WebhooksDeps {
  webhooks: WebhookRepository;
  deliveries: DeliveryRepository;
  policy: { allowPrivateUrls: boolean; secretsKey: Buffer };
}

export type Webhooks = ReturnType<typeof createWebhooks>;

/** How long a replaced secret keeps signing, so receivers can switch without missing one. */
const PREVIOUS_SECRET_MS = 24 * 60 * 60 * 1000;

/**
 * Webhooks as their owners manage them: the events a role may hear, a URL that passes the policy
 * (its addresses are looked up), and secrets, shown once and stored sealed.
 */
export function createWebhooks({ webhooks, deliveries, policy }: WebhooksDeps) {
  const checkUrl = (url: string) =>
    checkWebhookUrl(url, { allowPrivate: policy.allowPrivateUrls });
  const seal = (secret: string, now: Date): SealedSecret => ({
    sealed: sealSecret(secret, policy.secretsKey),
    createdAt: now,
    expiresAt: null,
  });

  return {
    list: webhooks.list.bind(webhooks),
    get: webhooks.get.bind(webhooks),
    delete: webhooks.delete.bind(webhooks),

    /** In the transaction of `session`; 409 once the account has 16 webhooks. */
    async create(
      caller: Caller,
      { url, events, description }: NewWebhook,
      session: Session,
    ): Promise<CreatedWebhook> {
      const subscribed = allowedEvents(caller.role, events);
      await checkUrl(url);
      const secret = newWebhookSecret();
      const now = new Date();
      const webhook = await webhooks.insert(
        {
          _id: newWebhookId(),
          accountId: caller.accountId,
          role: caller.role,
          url,
          events: subscribed,
          description: description ?? null,
          enabled: true,
          secrets: [seal(secret, now)],
          createdAt: now,
          updatedAt: now,
          failingSince: null,
        },
        session,
      );
      return { ...webhook, secret };
    },

    async update(
      caller: Caller,
      webhookId: string,
      patch: WebhookPatch,
    ): Promise<Webhook | undefined> {
      const current = await webhooks.find(caller, webhookId);
      if (!current) return undefined;
      const allowed = patch.events && {
        events: allowedEvents(current.role, patch.events),
      };
      if (patch.url !== undefined) await checkUrl(patch.url);
      // Turned back on, it forgets how long it had been failing.
      const restarted = patch.enabled && { failingSince: null };
      return webhooks.update(caller, webhookId, {
        ...patch,
        ...allowed,
        ...restarted,
      });
    },

    /**
     * The replaced secret signs alongside the new one for 24 hours; expired ones are dropped. In the
     * transaction of `session`: a rotation that ran meanwhile conflicts, and this one runs again.
     */
    async rotateSecret(
      caller: Caller,
      webhookId: string,
      session: Session,
    ): Promise<string | undefined> {
      const secret = newWebhookSecret();
      const current = await webhooks.find(caller, webhookId, session);
      if (!current) return undefined;
      const now = new Date();
      const replacedUntil = new Date(now.getTime() + PREVIOUS_SECRET_MS);
      const stillSigning = current.secrets.flatMap(
        (previous): SealedSecret[] => {
          const expiresAt = previous.expiresAt ?? replacedUntil;
          return expiresAt > now ? [{ ...previous, expiresAt }] : [];
        },
      );
      const secrets = [seal(secret, now), ...stillSigning];
      await webhooks.update(caller, webhookId, { secrets }, session);
      return secret;
    },

    /** A `webhook.test` event to this webhook alone, due now; its `data` is the webhook. */
    async sendTest(
      caller: Caller,
      webhookId: string,
      session: Session,
    ): Promise<WebhookDelivery> {
      const webhook = await webhooks.get(caller, webhookId, session);
      if (!webhook) throw webhookNotFound();
      if (!webhook.enabled) {
        throw new AppError(
          'conflict',
          'the webhook is turned off: turn it on to test it',
        );
      }
      const event = {
        id: timeOrderedId('evt'),
        type: 'webhook.test' as const,
        timestamp: new Date().toISOString(),
        data: webhook,
      };
      return deliveries.insert(newDelivery(webhook.id, event), session);
    },
  };
}

function allowedEvents(
  role: Role,
  events: WebhookEventType[],
): WebhookEventType[] {
  const unique = [...new Set(events)];
  const refused = unique.filter(
    (type) => role !== 'admin' && !customerEventTypes.includes(type),
  );
  if (refused.length > 0) {
    throw new AppError(
      'forbidden',
      `only an admin’s webhooks may receive ${refused.join(', ')}; a customer’s hear of its own orders and messages`,
    );
  }
  return unique;
}
