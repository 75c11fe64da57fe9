import type { RecordedEvent } from '@petstore/contract';
import type { Collection, Document } from 'mongodb';
import {
  carrying,
  toRecordedEvent,
  takenOff,
  type PendingEvent,
  type WithPendingEvents,
} from './pending-events.js';

export interface HeldEvent {
  event: RecordedEvent;
  documentId: unknown;
}

export interface EventSource<Doc extends Document = Document> {
  /**
   * Hands the relay the events a write just recorded in the document `documentId`, as they are
   * sent; called only once the write is known to be applied.
   */
  written(documentId: unknown, events: RecordedEvent[]): void;
  onWritten(handOver: (events: HeldEvent[]) => void): void;
  /** Up to `limit` of the events the collection's documents carry, oldest first. */
  pending(limit: number): Promise<HeldEvent[]>;
  /** Takes events the gateway has off their documents. */
  handedOver(events: HeldEvent[]): Promise<void>;
  eventsOf(document: Doc): RecordedEvent[];
}

export interface EventSourceOptions<Doc extends Document & WithPendingEvents> {
  collection: Collection<Doc>;
  toData: (document: Doc, event: PendingEvent) => Record<string, unknown>;
  accountOf?: (document: Doc) => string | undefined;
}

export function eventSource<Doc extends Document & WithPendingEvents>(
  options: EventSourceOptions<Doc>,
): EventSource<Doc> {
  const { collection, toData, accountOf } = options;
  // Untyped: the filters name fields (`pendingEvents.<id>`) no document type can list.
  const documents = collection as unknown as Collection<Document>;
  let handOver = (_events: HeldEvent[]) => {};
  const eventsOf = (document: Doc) =>
    Object.entries(document.pendingEvents ?? {}).map(([id, event]) =>
      toRecordedEvent(id, event, toData(document, event), event.accountId ?? accountOf?.(document)),
    );
  return {
    eventsOf,
    written(documentId, events) {
      if (events.length > 0) handOver(events.map((event) => ({ documentId, event })));
    },
    onWritten(then) {
      handOver = then;
    },
    async pending(limit) {
      const found = (await documents
        .find({ pendingEventCount: { $gt: 0 } }, { limit })
        .toArray()) as unknown as Doc[];
      return found
        .flatMap((document) =>
          eventsOf(document).map((event): HeldEvent => ({ documentId: document._id, event })),
        )
        .sort((a, b) => a.event.timestamp.localeCompare(b.event.timestamp))
        .slice(0, limit);
    },
    async handedOver(events) {
      if (events.length === 0) return;
      const byDocument = new Map<unknown, string[]>();
      for (const { event, documentId } of events) {
        byDocument.set(documentId, [...(byDocument.get(documentId) ?? []), event.id]);
      }
      // Each document loses the events that went, matched only while it still carries them all.
      const { matchedCount } = await documents.bulkWrite(
        [...byDocument].map(([documentId, ids]) => ({
          updateOne: {
            filter: { _id: documentId as never, ...carrying(ids) },
            update: takenOff(ids),
          },
        })),
        { ordered: false },
      );
      if (matchedCount === byDocument.size) return;
      // Another relay took some first: take each of the rest on its own, if still there.
      await documents.bulkWrite(
        events.map(({ event, documentId }) => ({
          updateOne: {
            filter: { _id: documentId as never, ...carrying([event.id]) },
            update: takenOff([event.id]),
          },
        })),
        { ordered: false },
      );
    },
  };
}
