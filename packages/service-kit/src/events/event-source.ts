import type { RecordedEvent } from '@petstore/contract';
import type { Collection, Document } from 'mongodb';
import { carrying, takenOff, type PendingEvent, type WithPendingEvents } from './pending-events.js';

/** The most documents remembered as written; past it the relay's look through finds the rest. */
const MOST_HINTS = 10_000;

/** A document written with events, as the relay read it: its id and the number of its write. */
type Hint = [documentId: unknown, write: number];

/** An event as the gateway takes it, with the document that keeps it until it is handed over. */
export interface HeldEvent {
  event: RecordedEvent;
  documentId: unknown;
}

/** The documents of one collection that carry pending events, as the relay hands them over. */
export interface EventSource<Doc extends Document = Document> {
  /**
   * Notes that the document `documentId` now carries new events, and wakes the relay: it reads
   * the document by its id rather than looking through the collection, which reads every one.
   * Harmless when the write did not happen: the document is read and carries nothing.
   */
  written(documentId: unknown): void;
  /** Calls `wake` on every `written`: the relay's kick. */
  onWritten(wake: () => void): void;
  /**
   * Up to `limit` pending events, oldest first: of the documents `written` named when there are
   * any, else, when `lookThrough`, of any document.
   */
  pending(limit: number, lookThrough: boolean): Promise<HeldEvent[]>;
  /** Whether documents `written` named are waiting to be read. */
  hinted(): boolean;
  /** Takes the events off their documents (each only if it is still there). */
  handedOver(events: HeldEvent[]): Promise<void>;
  /** The events `document` carries, as the gateway takes them: to hand over before deleting it. */
  eventsOf(document: Doc): RecordedEvent[];
}

export interface EventSourceOptions<Doc extends Document & WithPendingEvents> {
  collection: Collection<Doc>;
  /** The resource as the event shows it (as the API shows it), from the document and the event. */
  toData: (document: Doc, event: PendingEvent) => Record<string, unknown>;
  /** The account whose resource the document is, for an event recorded without one. */
  accountOf?: (document: Doc) => string | undefined;
}

/** The documents of `collection` with pending events, read and acknowledged by the relay. */
export function eventSource<Doc extends Document & WithPendingEvents>({
  collection,
  toData,
  accountOf,
}: EventSourceOptions<Doc>): EventSource<Doc> {
  // Untyped here: the filters name fields (`pendingEvents.<id>`) no document type can list.
  const documents = collection as unknown as Collection<Document>;
  // Documents written with events and not yet sent, each with the number of its latest write:
  // a document written again after the relay read it stays named.
  const hints = new Map<unknown, number>();
  let writes = 0;
  let wake = () => {};
  // The hints of the documents read last, forgotten once their events are sent.
  let read: Hint[] = [];
  const forget = (sent: Hint[]) => {
    for (const [id, write] of sent) if (hints.get(id) === write) hints.delete(id);
  };
  // How many events each document read carried.
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
        const documentsRead = await documents
          .find({ _id: { $in: read.map(([_id]) => _id as never) } })
          .toArray();
        found = documentsRead.filter(
          (document) => ((document.pendingEventCount as number | undefined) ?? 0) > 0,
        ) as unknown as Doc[];
        forget(read.filter(([id]) => !found.some((document) => document._id === id)));
      } else if (lookThrough) {
        found = (await documents
          .find({ pendingEventCount: { $gt: 0 } })
          .limit(limit)
          .toArray()) as unknown as Doc[];
      } else {
        return [];
      }
      carried.clear();
      for (const document of found) {
        carried.set(document._id, Object.keys(document.pendingEvents ?? {}).length);
      }
      const held = found.flatMap((document) =>
        eventsOf(document).map((event): HeldEvent => ({ documentId: document._id, event })),
      );
      return held
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
      // One command, an update by `_id` per document: a document all of whose events went is
      // emptied, matched only while it still carries just those; the others lose what went.
      const { matchedCount } = await documents.bulkWrite(
        [...byDocument].map(([documentId, ids]) => ({
          updateOne:
            ids.length === carried.get(documentId)
              ? {
                  filter: {
                    _id: documentId as never,
                    pendingEventCount: ids.length,
                    ...carrying(ids),
                  },
                  update: { $set: { pendingEvents: {}, pendingEventCount: 0 } },
                }
              : { filter: { _id: documentId as never, ...carrying(ids) }, update: takenOff(ids) },
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
