import type { RecordedEvent } from '@petstore/contract';
import type { Collection, Document } from 'mongodb';
import { carrying, takenOff, type PendingEvent, type WithPendingEvents } from './pending-events.js';

// Past it, writes are not remembered: the relay's look through the collection finds them.
const MOST_HINTS = 10_000;

type Hint = [documentId: unknown, write: number];

export interface HeldEvent {
  event: RecordedEvent;
  documentId: unknown;
}

export interface EventSource<Doc extends Document = Document> {
  /** Wakes the relay to read the document by id; harmless when the write did not happen. */
  written(documentId: unknown): void;
  onWritten(wake: () => void): void;
  pending(limit: number, lookThrough: boolean): Promise<HeldEvent[]>;
  hinted(): boolean;
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
  // A document written again after the relay read it stays named.
  const hints = new Map<unknown, number>();
  let writes = 0;
  let wake = () => {};
  let read: Hint[] = [];
  const forget = (sent: Hint[]) => {
    for (const [id, write] of sent) if (hints.get(id) === write) hints.delete(id);
  };
  const carried = new Map<unknown, number>();
  const eventsOf = (document: Doc) =>
    Object.entries(document.pendingEvents ?? {}).map(([id, event]): RecordedEvent => {
      const accountId = event.accountId ?? accountOf?.(document);
      return {
        id,
        type: event.type,
        timestamp: new Date(event.timestamp).toISOString(),
        data: toData(document, event),
        ...(accountId === undefined ? {} : { accountId }),
      };
    });
  const find = async (filter: Document, limit?: number) =>
    (await documents.find(filter, { limit }).toArray()) as unknown as Doc[];
  return {
    eventsOf,
    written(documentId) {
      if (hints.size < MOST_HINTS || hints.has(documentId)) hints.set(documentId, ++writes);
      wake();
    },
    onWritten(then) {
      wake = then;
    },
    async pending(limit, lookThrough) {
      read = [...hints].slice(0, limit);
      let found: Doc[];
      if (read.length > 0) {
        const named = await find({ _id: { $in: read.map(([_id]) => _id) } });
        found = named.filter((document) => (document.pendingEventCount ?? 0) > 0);
        forget(read.filter(([id]) => !found.some((document) => document._id === id)));
      } else if (lookThrough) {
        found = await find({ pendingEventCount: { $gt: 0 } }, limit);
      } else {
        return [];
      }
      carried.clear();
      for (const document of found) {
        carried.set(document._id, Object.keys(document.pendingEvents ?? {}).length);
      }
      return found
        .flatMap((document) =>
          eventsOf(document).map((event): HeldEvent => ({ documentId: document._id, event })),
        )
        .sort((a, b) => a.event.timestamp.localeCompare(b.event.timestamp))
        .slice(0, limit);
    },
    hinted: () => hints.size > 0,
    async handedOver(events) {
      if (events.length === 0) return;
      const byDocument = new Map<unknown, string[]>();
      for (const { event, documentId } of events) {
        byDocument.set(documentId, [...(byDocument.get(documentId) ?? []), event.id]);
      }
      // A document keeps its hint while it has events a full batch left out.
      forget(read.filter(([id]) => byDocument.get(id)?.length === carried.get(id)));
      // A document all of whose events went is emptied, matched only while it still carries just
      // those; the others lose what went.
      const { matchedCount } = await documents.bulkWrite(
        [...byDocument].map(([documentId, ids]) => {
          const filter = { _id: documentId as never, ...carrying(ids) };
          const all = ids.length === carried.get(documentId);
          return {
            updateOne: all
              ? {
                  filter: { ...filter, pendingEventCount: ids.length },
                  update: { $set: { pendingEvents: {}, pendingEventCount: 0 } },
                }
              : { filter, update: takenOff(ids) },
          };
        }),
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
