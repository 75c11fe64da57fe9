import {
  customerEventTypes,
  type CreatedWebhook,
  type NewWebhook,
  type Role,
  type Webhook,
  type WebhookEventType,
  type WebhookPatch,
} from '@petstore/contract';
import {
  AppError,
  findPage,
  inTransaction,
  type Caller,
  type Session,
  type TimePage,
} from '@petstore/service-kit';
import type { Db, MongoClient } from 'mongodb';
import {
  gatewayCollections,
  visibleTo,
  type GatewayCollections,
  type SealedSecret,
  type WebhookDocument,
} from '../database/collections.js';
import { MAX_WEBHOOKS, refuseOverLimit } from '../accounts/account-limits.js';
import { newWebhookId } from '../database/ids.js';
import { checkWebhookUrl } from './url-policy.js';
import { newWebhookSecret, sealSecret } from './webhook-secret.js';

/** How long a replaced secret keeps signing, so receivers can switch without missing one. */
const PREVIOUS_SECRET_MS = 24 * 60 * 60 * 1000;

export const webhookNotFound = () => new AppError('not_found', 'no such webhook');

export class WebhookRepository {
  readonly #accounts: GatewayCollections['accounts'];
  readonly #webhooks: GatewayCollections['webhooks'];
  readonly #deliveries: GatewayCollections['deliveries'];
  readonly #client: MongoClient;

  constructor(
    db: Db,
    private readonly policy: { allowPrivateUrls: boolean; secretsKey: Buffer },
  ) {
    const collections = gatewayCollections(db);
    ({
      accounts: this.#accounts,
      webhooks: this.#webhooks,
      deliveries: this.#deliveries,
    } = collections);
    this.#client = db.client;
  }

  /** In the transaction of `session`; 409 once the account has 16 webhooks. */
  async create(
    caller: Caller,
    { url, events, description }: NewWebhook,
    session: Session,
  ): Promise<CreatedWebhook> {
    const subscribed = allowedEvents(caller.role, events);
    await this.#checkUrl(url);
    const secret = newWebhookSecret();
    const now = new Date();
    const document: WebhookDocument = {
      _id: newWebhookId(),
      accountId: caller.accountId,
      role: caller.role,
      url,
      events: subscribed,
      description: description ?? null,
      enabled: true,
      secrets: [this.#seal(secret, now)],
      createdAt: now,
      updatedAt: now,
      failingSince: null,
    };
    const { accountId } = caller;
    const count = () => this.#webhooks.countDocuments({ accountId }, { session });
    await refuseOverLimit(this.#accounts, session, {
      accountId,
      max: MAX_WEBHOOKS,
      what: 'webhooks',
      count,
    });
    await this.#webhooks.insertOne(document, { session });
    return { ...toWebhook(document), secret };
  }

  /** Oldest first; an admin's list holds every account's. */
  async list(caller: Caller, page: TimePage): Promise<Webhook[]> {
    const owned = caller.role === 'admin' ? {} : { accountId: caller.accountId };
    return (await findPage(this.#webhooks, owned, page, 'ascending')).map(toWebhook);
  }

  async get(caller: Caller, webhookId: string, session?: Session): Promise<Webhook | undefined> {
    const document = await this.#webhooks.findOne(visibleTo(caller, webhookId), { session });
    return document ? toWebhook(document) : undefined;
  }

  async update(caller: Caller, webhookId: string, patch: WebhookPatch) {
    const current = await this.#webhooks.findOne(visibleTo(caller, webhookId));
    if (!current) return undefined;
    const allowed = patch.events && { events: allowedEvents(current.role, patch.events) };
    if (patch.url !== undefined) await this.#checkUrl(patch.url);
    // Turned back on, it forgets how long it had been failing.
    const restarted = patch.enabled && { failingSince: null };
    const set = { ...patch, ...allowed, ...restarted, updatedAt: new Date() };
    const updated = await this.#webhooks.findOneAndUpdate(
      visibleTo(caller, webhookId),
      { $set: set },
      { returnDocument: 'after' },
    );
    return updated ? toWebhook(updated) : undefined;
  }

  /** Deletes the webhook and its deliveries in one transaction. */
  delete(caller: Caller, webhookId: string): Promise<boolean> {
    return inTransaction(this.#client, async (session) => {
      const filter = visibleTo(caller, webhookId);
      const { deletedCount } = await this.#webhooks.deleteOne(filter, { session });
      if (deletedCount === 0) return false;
      await this.#deliveries.deleteMany({ webhookId }, { session });
      return true;
    });
  }

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
    const current = await this.#webhooks.findOne(visibleTo(caller, webhookId), { session });
    if (!current) return undefined;
    const now = new Date();
    const replacedUntil = new Date(now.getTime() + PREVIOUS_SECRET_MS);
    const stillSigning = current.secrets.flatMap((previous): SealedSecret[] => {
      const expiresAt = previous.expiresAt ?? replacedUntil;
      return expiresAt > now ? [{ ...previous, expiresAt }] : [];
    });
    await this.#webhooks.updateOne(
      { _id: current._id },
      { $set: { secrets: [this.#seal(secret, now), ...stillSigning], updatedAt: now } },
      { session },
    );
    return secret;
  }

  #seal(secret: string, now: Date): SealedSecret {
    return { sealed: sealSecret(secret, this.policy.secretsKey), createdAt: now, expiresAt: null };
  }

  async #checkUrl(url: string): Promise<void> {
    await checkWebhookUrl(url, { allowPrivate: this.policy.allowPrivateUrls });
  }
}

function allowedEvents(role: Role, events: WebhookEventType[]): WebhookEventType[] {
  const unique = [...new Set(events)];
  const refused = unique.filter((type) => role !== 'admin' && !customerEventTypes.includes(type));
  if (refused.length > 0) {
    throw new AppError(
      'forbidden',
      `only an admin’s webhooks may receive ${refused.join(', ')}; a customer’s hear of its own orders and messages`,
    );
  }
  return unique;
}

function toWebhook(document: WebhookDocument): Webhook {
  const { _id: id, url, events, description, enabled, createdAt } = document;
  return { id, url, events, description, enabled, createdAt: createdAt.toISOString() };
}
