import { WebhookSchema, type Webhook } from '@petstore/contract';
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
  type WebhookDocument,
} from '../database/collections.js';
import { MAX_WEBHOOKS, refuseOverLimit } from '../accounts/account-limits.js';

export const webhookNotFound = () =>
  new AppError('not_found', 'no such webhook');

/** What an update sets; `updatedAt` is set with it. */
export type WebhookChanges = Partial<
  Pick<
    WebhookDocument,
    'url' | 'events' | 'description' | 'enabled' | 'failingSince' | 'secrets'
  >
>;

export class WebhookRepository {
  readonly #collections: GatewayCollections;
  readonly #client: MongoClient;

  constructor(db: Db) {
    this.#collections = gatewayCollections(db);
    this.#client = db.client;
  }

  /** In the transaction of `session`; 409 once the account has 16 webhooks. */
  async insert(document: WebhookDocument, session: Session): Promise<Webhook> {
    const { accounts, webhooks } = this.#collections;
    const { accountId } = document;
    await refuseOverLimit(accounts, session, {
      accountId,
      max: MAX_WEBHOOKS,
      what: 'webhooks',
      count: () => webhooks.countDocuments({ accountId }, { session }),
    });
    await webhooks.insertOne(document, { session });
    return toWebhook(document);
  }

  /** Oldest first; an admin's list has every account's. */
  async list(caller: Caller, page: TimePage): Promise<Webhook[]> {
    const owned =
      caller.role === 'admin' ? {} : { accountId: caller.accountId };
    return (
      await findPage(this.#collections.webhooks, owned, page, 'ascending')
    ).map(toWebhook);
  }

  async get(
    caller: Caller,
    webhookId: string,
    session?: Session,
  ): Promise<Webhook | undefined> {
    const document = await this.find(caller, webhookId, session);
    return document ? toWebhook(document) : undefined;
  }

  find(caller: Caller, webhookId: string, session?: Session) {
    const filter = visibleTo(caller, webhookId);
    return this.#collections.webhooks.findOne(filter, { session });
  }

  async update(
    caller: Caller,
    webhookId: string,
    changes: WebhookChanges,
    session?: Session,
  ) {
    const updated = await this.#collections.webhooks.findOneAndUpdate(
      visibleTo(caller, webhookId),
      { $set: { ...changes, updatedAt: new Date() } },
      { returnDocument: 'after', session },
    );
    return updated ? toWebhook(updated) : undefined;
  }

  /** Deletes the webhook and its deliveries in one transaction. */
  delete(caller: Caller, webhookId: string): Promise<boolean> {
    return inTransaction(this.#client, async (session) => {
      const filter = visibleTo(caller, webhookId);
      const { webhooks, deliveries } = this.#collections;
      const { deletedCount } = await webhooks.deleteOne(filter, { session });
      if (deletedCount === 0) return false;
      await deliveries.deleteMany({ webhookId }, { session });
      return true;
    });
  }
}

function toWebhook(document: WebhookDocument): Webhook {
  const createdAt = document.createdAt.toISOString();
  return WebhookSchema.parse({ ...document, id: document._id, createdAt });
}
