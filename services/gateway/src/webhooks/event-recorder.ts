import { createHash } from 'node:crypto';
import {
  customerEventTypes,
  type DeliveryType,
  type RecordedEvent,
} from '@petstore/contract';
import type { Session } from '@petstore/service-kit';
import type { Db } from 'mongodb';
import {
  gatewayCollections,
  type GatewayCollections,
  type WebhookDeliveryDocument,
  type WebhookDocument,
} from '../database/collections.js';

/**
 * The same id however often the event is recorded. It begins with what follows `evt_`, the time
 * in the event ids this API makes, so that deliveries, like events, are stored in time order.
 */
export function deliveryIdOf(webhookId: string, eventId: string): string {
  const digest = createHash('sha256')
    .update(`${webhookId}:${eventId}`)
    .digest('hex');
  return `whd_${eventId.slice('evt_'.length, 'evt_'.length + 12)}${digest.slice(0, 20)}`;
}

function wants(webhook: WebhookDocument, event: RecordedEvent): boolean {
  if (!webhook.events.includes(event.type)) return false;
  if (webhook.role === 'admin') return true;
  return (
    event.accountId === webhook.accountId &&
    customerEventTypes.includes(event.type)
  );
}

/** An event's delivery to one webhook, not yet attempted, due when the event happened. */
export function newDelivery(
  webhookId: string,
  event: Pick<RecordedEvent, 'id' | 'timestamp' | 'data'> & {
    type: DeliveryType;
  },
): WebhookDeliveryDocument {
  const { id: eventId, type, data } = event;
  const eventAt = new Date(event.timestamp);
  return {
    _id: deliveryIdOf(webhookId, eventId),
    webhookId,
    eventId,
    type,
    eventAt,
    data,
    nextAttemptAt: eventAt,
    createdAt: new Date(),
    status: 'pending',
    attempts: 0,
    lastStatusCode: null,
    lastError: null,
  };
}

/** Records each event's delivery, once, to every webhook that wants it. */
export class EventRecorder {
  readonly #collections: GatewayCollections;

  /** `onRecorded`: deliveries to these webhooks are due, e.g. to wake the delivery worker. */
  constructor(
    db: Db,
    private readonly onRecorded: (webhookIds: string[]) => void = () =>
      undefined,
  ) {
    this.#collections = gatewayCollections(db);
  }

  /**
   * Idempotent, and makes the deliveries of an event recorded before again, in case that stopped
   * half-way. An event no webhook wants is not kept. Returns how many events were newly kept.
   */
  async recordEvents(
    events: RecordedEvent[],
    session?: Session,
  ): Promise<number> {
    const types = [...new Set(events.map(({ type }) => type))];
    const webhooks = await this.#collections.webhooks
      .find({ enabled: true, events: { $in: types } }, { session })
      .project<WebhookDocument>({ secrets: 0 })
      .toArray();
    const deliveries = events.flatMap((event) =>
      webhooks
        .filter((webhook) => wants(webhook, event))
        .map(({ _id }) => newDelivery(_id, event)),
    );
    if (deliveries.length === 0) return 0;
    // Inserted unless there (by `_id`): a duplicate is no error, even in a transaction.
    const { upsertedIds } = await this.#collections.deliveries.bulkWrite(
      deliveries.map((delivery) => ({
        updateOne: {
          filter: { _id: delivery._id },
          update: { $setOnInsert: delivery },
          upsert: true,
        },
      })),
      { ordered: false, session },
    );
    const kept = Object.keys(upsertedIds).map(
      (index) => deliveries[Number(index)]!.eventId,
    );
    if (kept.length === 0) return 0;
    const webhookIds = [
      ...new Set(deliveries.map(({ webhookId }) => webhookId)),
    ];
    // New events of the gateway's own are due once the transaction of their change ended.
    if (!session) this.onRecorded(webhookIds);
    session?.once('ended', () => {
      this.onRecorded(webhookIds);
    });
    return new Set(kept).size;
  }
}
