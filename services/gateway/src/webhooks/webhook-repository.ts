import {
  customerEventTypes,
  type CreatedWebhook,
  type NewWebhook,
  type Role,
  type Webhook,
  type WebhookEventType,
  type WebhookPatch,
} from '@petstore/contract';
import { AppError, type Caller } from '@petstore/service-kit';
import type { Db, Filter } from 'mongodb';
import {
  gatewayCollections,
  type GatewayCollections,
  type SealedSecret,
  type WebhookDocument,
} from '../database/collections.js';
import { newWebhookId } from '../database/random-ids.js';
import { after, type Position } from './keyset-page.js';
import { checkWebhookUrl } from './url-policy.js';
import { newWebhookSecret, sealSecret } from './webhook-secret.js';

/** How long a replaced secret keeps signing, so receivers can switch without missing one. */
const PREVIOUS_SECRET_MS = 24 * 60 * 60 * 1000;

export interface WebhookPolicy {
  allowPrivateUrls: boolean;
  secretsKey: Buffer;
}

/** The webhook if `caller` may see it: its own, or any when an admin. */
export function visibleTo(caller: Caller, webhookId: string): Filter<WebhookDocument> {
  return caller.role === 'admin'
    ? { _id: webhookId }
    : { _id: webhookId, accountId: caller.accountId };
}

export function webhookNotFound(): AppError {
  return new AppError('not_found', 'no such webhook');
}

export class WebhookRepository {
  readonly #collections: GatewayCollections;
  readonly #policy: WebhookPolicy;
  readonly #now: () => Date;

  constructor(db: Db, policy: WebhookPolicy, now: () => Date = () => new Date()) {
    this.#collections = gatewayCollections(db);
    this.#policy = policy;
    this.#now = now;
  }

  async create(caller: Caller, { url, events, description }: NewWebhook): Promise<CreatedWebhook> {
    const subscribed = allowedEvents(caller.role, events);
    await this.#checkUrl(url);
    const secret = newWebhookSecret();
    const now = this.#now();
    const document: WebhookDocument = {
      _id: newWebhookId(),
      accountId: caller.accountId,
      role: caller.role,
      url,
      events: subscribed,
      description: description ?? null,
      enabled: true,
      secrets: [
        { sealed: sealSecret(secret, this.#policy.secretsKey), createdAt: now, expiresAt: null },
      ],
      createdAt: now,
      updatedAt: now,
      failingSince: null,
    };
    await this.#collections.webhooks.insertOne(document);
    return { ...toWebhook(document), secret };
  }

  /** Oldest first; an admin's list holds every account's. */
  async list(caller: Caller, position: Position | undefined, limit: number): Promise<Webhook[]> {
    const owned: Filter<WebhookDocument> =
      caller.role === 'admin' ? {} : { accountId: caller.accountId };
    const documents = await this.#collections.webhooks
      .find({ ...owned, ...after<WebhookDocument>(position, 'ascending') })
      .sort({ createdAt: 1, _id: 1 })
      .limit(limit)
      .toArray();
    return documents.map(toWebhook);
  }

  async get(caller: Caller, webhookId: string): Promise<Webhook | undefined> {
    const document = await this.#collections.webhooks.findOne(visibleTo(caller, webhookId));
    return document ? toWebhook(document) : undefined;
  }

  /** Turning a webhook back on forgets how long it had been failing. */
  async update(
    caller: Caller,
    webhookId: string,
    patch: WebhookPatch,
  ): Promise<Webhook | undefined> {
    const current = await this.#collections.webhooks.findOne(visibleTo(caller, webhookId));
    if (!current) return undefined;
    const set: Partial<WebhookDocument> = { updatedAt: this.#now() };
    if (patch.events !== undefined) set.events = allowedEvents(current.role, patch.events);
    if (patch.url !== undefined) {
      await this.#checkUrl(patch.url);
      set.url = patch.url;
    }
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.enabled !== undefined) set.enabled = patch.enabled;
    if (patch.enabled === true) set.failingSince = null;
    const updated = await this.#collections.webhooks.findOneAndUpdate(
      visibleTo(caller, webhookId),
      { $set: set },
      { returnDocument: 'after' },
    );
    return updated ? toWebhook(updated) : undefined;
  }

  async delete(caller: Caller, webhookId: string): Promise<boolean> {
    const { deletedCount } = await this.#collections.webhooks.deleteOne(
      visibleTo(caller, webhookId),
    );
    if (deletedCount === 0) return false;
    await this.#collections.deliveries.deleteMany({ webhookId });
    return true;
  }

  /** The replaced secret signs alongside the new one for 24 hours; expired ones are dropped. */
  async rotateSecret(caller: Caller, webhookId: string): Promise<string | undefined> {
    const secret = newWebhookSecret();
    // Applies only if the newest secret is still the one read, else reads again.
    for (;;) {
      const current = await this.#collections.webhooks.findOne(visibleTo(caller, webhookId));
      if (!current) return undefined;
      const now = this.#now();
      const replacedUntil = new Date(now.getTime() + PREVIOUS_SECRET_MS);
      const stillSigning = current.secrets.flatMap((previous): SealedSecret[] => {
        const expiresAt = previous.expiresAt ?? replacedUntil;
        return expiresAt > now ? [{ ...previous, expiresAt }] : [];
      });
      const secrets: SealedSecret[] = [
        { sealed: sealSecret(secret, this.#policy.secretsKey), createdAt: now, expiresAt: null },
        ...stillSigning,
      ];
      const newest = current.secrets[0]?.sealed ?? null;
      const { matchedCount } = await this.#collections.webhooks.updateOne(
        { ...visibleTo(caller, webhookId), 'secrets.0.sealed': newest },
        { $set: { secrets, updatedAt: now } },
      );
      if (matchedCount === 1) return secret;
    }
  }

  async #checkUrl(url: string): Promise<void> {
    await checkWebhookUrl(url, { allowPrivate: this.#policy.allowPrivateUrls });
  }
}

function allowedEvents(role: Role, events: WebhookEventType[]): WebhookEventType[] {
  const unique = [...new Set(events)];
  if (role === 'admin') return unique;
  const refused = unique.filter((type) => !customerEventTypes.includes(type));
  if (refused.length > 0) {
    throw new AppError(
      'forbidden',
      `only an admin’s webhooks may receive ${refused.join(', ')}; a customer’s hear of its own orders and messages`,
    );
  }
  return unique;
}

export function toWebhook(document: WebhookDocument): Webhook {
  return {
    id: document._id,
    url: document.url,
    events: document.events,
    description: document.description,
    enabled: document.enabled,
    createdAt: document.createdAt.toISOString(),
  };
}
