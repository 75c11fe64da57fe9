import type { Webhook } from '@petstore/contract';
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

export const webhookNotFound = () =>
  new AppError('not_found', 'no such webhook');

/** What an update sets; `updatedAt` is set with it. */
export type WebhookChanges = Partial<
  Pick<
    WebhookDocument,
    'url' | 'events' | 'description' | 'enabled' | 'failingSince'
  >
>;

export class WebhookRepository {
  readonly #accounts: GatewayCollections['accounts'];
  readonly #webhooks: GatewayCollections['webhooks'];
  readonly #deliveries: GatewayCollections['deliveries'];
  readonly #client: MongoClient;

  constructor(db: Db) {
    const collections = gatewayCollections(db);
    ({
      accounts: this.#accounts,
      webhooks: this.#webhooks,
      deliveries: this.#deliveries,
    } = collections);
    this.#client = db.client;
  }

  /** In the transaction of `session`; 409 once the account has 16 webhooks. */
  async insert(document: WebhookDocument, session: Session): Promise<Webhook> {
    const { accountId } = document;
    const count = () =>
      this.#webhooks.countDocuments({ accountId }, { session });
    await refuseOverLimit(this.#accounts, session, {
      accountId,
      max: MAX_WEBHOOKS,
      what: 'webhooks',
      count,
    });
    await this.#webhooks.insertOne(document, { session });
    return toWebhook(document);
  }

  /** Oldest first; an admin's list has every account's. */
  async list(caller: Caller, page: TimePage): Promise<Webhook[]> {
    const owned =
      caller.role === 'admin' ? {} : { accountId: caller.accountId };
    return (await findPage(this.#webhooks, owned, page, 'ascending')).map(
      toWebhook,
    );
  }

  async get(
    caller: Caller,
    webhookId: string,
    session?: Session,
  ): Promise<Webhook | undefined> {
    const document = await this.find(caller, webhookId, session);
    return document ? toWebhook(document) : undefined;
  }

  async find(caller: Caller, webhookId: string, session?: Session) {
    return (
      (await this.#webhooks.findOne(visibleTo(caller, webhookId), {
        session,
      })) ?? undefined
    );
  }

  async update(caller: Caller, webhookId: string, changes: WebhookChanges) {
    const updated = await this.#webhooks.findOneAndUpdate(
      visibleTo(caller, webhookId),
      { $set: { ...changes, updatedAt: new Date() } },
      { returnDocument: 'after' },
    );
    return updated ? toWebhook(updated) : undefined;
  }

  /** Deletes the webhook and its deliveries in one transaction. */
  delete(caller: Caller, webhookId: string): Promise<boolean> {
    return inTransaction(this.#client, async (session) => {
      const filter = visibleTo(caller, webhookId);
      const { deletedCount } = await this.#webhooks.deleteOne(filter, {
        session,
      });
      if (deletedCount === 0) return false;
      await this.#deliveries.deleteMany({ webhookId }, { session });
      return true;
    });
  }

  async replaceSecrets(
    webhookId: string,
    { secrets, updatedAt }: { secrets: SealedSecret[]; updatedAt: Date },
    session: Session,
  ): Promise<void> {
    await this.#webhooks.updateOne(
      { _id: webhookId },
      { $set: { secrets, updatedAt } },
      { session },
    );
  }
}

function toWebhook(document: WebhookDocument): Webhook {
  const { _id: id, url, events, description, enabled, createdAt } = document;
  return {
    id,
    url,
    events,
    description,
    enabled,
    createdAt: createdAt.toISOString(),
  };
}
