import type { RecordedEvent } from '@petstore/contract';
import type { Collection, Document } from 'mongodb';
import type { Logger } from '../logger.js';
import { Worker } from '../worker.js';
import type { PendingEvent, WithPendingEvents } from './pending-events.js';

/** Documents of one collection that carry pending events, as the relay hands them over. */
export interface EventSource {
  /** Up to `limit` documents' events, as the gateway takes them. */
  pending(limit: number): Promise<RecordedEvent[]>;
  /** Takes the events off their documents (each only if it is still there). */
  handedOver(events: RecordedEvent[]): Promise<void>;
}

export interface EventSourceOptions<Doc extends Document & WithPendingEvents> {
  collection: Collection<Doc>;
  /** The resource as the event shows it: as the API shows it, from the document and the event. */
  toData: (document: Doc, event: PendingEvent) => Record<string, unknown>;
  /** The account whose resource the document is, for an event recorded without one. */
  accountOf?: (document: Doc) => string | undefined;
}

/** The documents of `collection` with pending events, read and acknowledged by the relay. */
export function eventSource<Doc extends Document & WithPendingEvents>({
  collection,
  toData,
  accountOf,
}: EventSourceOptions<Doc>): EventSource {
  // Which document each event handed over sits in.
  const homes = new Map<string, Doc['_id']>();
  // Untyped here: the filters name fields (`pendingEvents.<id>`) no document type can list.
  const documents = collection as unknown as Collection<Document>;
  return {
    async pending(limit) {
      const found = (await documents
        .find({ pendingEventCount: { $gt: 0 } })
        .limit(limit)
        .toArray()) as unknown as Doc[];
      return found.flatMap((document) =>
        Object.entries(document.pendingEvents ?? {}).map(([id, event]): RecordedEvent => {
          homes.set(id, document._id as Doc['_id']);
          const accountId = event.accountId ?? accountOf?.(document);
          return {
            id,
            type: event.type,
            timestamp: new Date(event.timestamp).toISOString(),
            data: toData(document, event),
            ...(accountId === undefined ? {} : { accountId }),
          };
        }),
      );
    },
    async handedOver(events) {
      await documents.bulkWrite(
        events.map(({ id }) => ({
          updateOne: {
            filter: { _id: homes.get(id) as never, [`pendingEvents.${id}`]: { $exists: true } },
            update: { $unset: { [`pendingEvents.${id}`]: '' }, $inc: { pendingEventCount: -1 } },
          },
        })),
        { ordered: false },
      );
      for (const { id } of events) homes.delete(id);
    },
  };
}

export interface EventRelayOptions {
  logger: Logger;
  sources: EventSource[];
  /** Hands events to the gateway (at least once: handing one twice must be harmless). */
  send: (events: RecordedEvent[]) => Promise<void>;
  /** How often to look when nothing kicks the relay (events a dead process left behind). */
  idleMs: number;
}

/** Events handed over at once: the most `POST /internal/events` takes. */
const BATCH = 100;

/**
 * Hands the events that documents carry to the gateway, which delivers them to webhooks: a batch
 * at a time, then takes them off their documents. At least once: a relay that dies between the
 * two hands the batch over again, and the gateway records an event once.
 */
export function eventRelay({ logger, sources, send, idleMs }: EventRelayOptions): Worker {
  return new Worker({
    name: 'event-relay',
    logger,
    idleMs,
    step: async () => {
      let relayed = false;
      for (const source of sources) {
        const events = (await source.pending(BATCH)).slice(0, BATCH);
        if (events.length === 0) continue;
        await send(events);
        await source.handedOver(events);
        relayed = true;
      }
      return relayed;
    },
  });
}
