import { createHash } from 'node:crypto';
import { customerEventTypes, type RecordedEvent } from '@petstore/contract';
import type { Session } from '@petstore/service-kit';
import {
  MongoBulkWriteError,
  type Collection,
  type Db,
  type OptionalUnlessRequiredId,
} from 'mongodb';
import {
  gatewayCollections,
  type GatewayCollections,
  type WebhookDocument,
  type WebhookEventDocument,
} from '../database/collections.js';

/**
 * The same id however often the event is recorded. It begins with what follows `evt_`, the time
 * in the event ids this API makes, so that deliveries, like events, are stored in time order.
 */
export function deliveryIdOf(webhookId: string, eventId: string): string {
  const digest = createHash('sha256').update(`${webhookId}:${eventId}`).digest('hex');
  return `whd_${eventId.slice('evt_'.length, 'evt_'.length + 12)}${digest.slice(0, 20)}`;
}

function wants(webhook: WebhookDocument, event: WebhookEventDocument): boolean {
  if (!webhook.events.includes(event.type)) return false;
  if (webhook.role === 'admin') return true;
  return event.accountId === webhook.accountId && customerEventTypes.includes(event.type);
}

const UNSENT = { status: 'pending', attempts: 0, lastStatusCode: null, lastError: null } as const;

/** Inserts the documents not already there (by `_id`); how many were new. */
async function insertOnce<T extends { _id: string }>(
  collection: Collection<T>,
  documents: OptionalUnlessRequiredId<T>[],
): Promise<number> {
  if (documents.length === 0) return 0;
  try {
    await collection.insertMany(documents, { ordered: false });
    return documents.length;
  } catch (error) {
    const refused = error instanceof MongoBulkWriteError ? [error.writeErrors].flat() : [];
    if (refused.length === 0 || refused.some(({ code }) => code !== 11000)) throw error;
    // Counted from the refusals: not every server reports `insertedCount` after one.
    return documents.length - refused.length;
  }
}

/** Records each event once by its id, and its delivery to every webhook that wants it. */
export class EventRecorder {
  readonly #collections: GatewayCollections;

  /** `onRecorded`: deliveries to these webhooks are due, e.g. to wake the delivery worker. */
  constructor(
    db: Db,
    private readonly onRecorded: (webhookIds: string[]) => void = () => undefined,
  ) {
    this.#collections = gatewayCollections(db);
  }

  /**
   * Idempotent, and makes the deliveries of an event recorded before again, in case that stopped
   * half-way. An event no webhook wants is not kept. Returns how many events were newly kept.
   */
  async recordEvents(events: RecordedEvent[], session?: Session): Promise<number> {
    const recordedAt = new Date();
    const documents = events.map(({ id, type, timestamp, data, accountId }) => {
      const owner = accountId === undefined ? {} : { accountId };
      return { _id: id, type, timestamp: new Date(timestamp), data, ...owner, recordedAt };
    });
    const deliveries = await this.#deliveriesOf(documents, recordedAt, session);
    const wanted = new Set(deliveries.map(({ eventId }) => eventId));
    const kept = documents.filter(({ _id }) => wanted.has(_id));
    const webhookIds = [...new Set(deliveries.map(({ webhookId }) => webhookId))];
    if (session) {
      // New events of the gateway's own, in the transaction of their change.
      if (kept.length > 0) await this.#collections.events.insertMany(kept, { session });
      if (deliveries.length > 0) {
        await this.#collections.deliveries.insertMany(deliveries, { session });
        session.once('ended', () => this.onRecorded(webhookIds));
      }
      return kept.length;
    }
    const recorded = await insertOnce(this.#collections.events, kept);
    if ((await insertOnce(this.#collections.deliveries, deliveries)) > 0) {
      this.onRecorded(webhookIds);
    }
    return recorded;
  }

  async #deliveriesOf(events: WebhookEventDocument[], createdAt: Date, session?: Session) {
    const types = [...new Set(events.map(({ type }) => type))];
    const webhooks = await this.#collections.webhooks
      .find({ enabled: true, events: { $in: types } }, { session })
      .project<WebhookDocument>({ secrets: 0 })
      .toArray();
    return events.flatMap((event) => {
      const { _id: eventId, type, timestamp: eventAt } = event;
      const due = { eventId, type, eventAt, nextAttemptAt: eventAt, createdAt, ...UNSENT };
      return webhooks
        .filter((webhook) => wants(webhook, event))
        .map(({ _id }) => ({ _id: deliveryIdOf(_id, eventId), webhookId: _id, ...due }));
    });
  }
}
