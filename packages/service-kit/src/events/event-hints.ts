import type { Collection, Document } from 'mongodb';

/** The most documents remembered per collection; past it the relay's look through it finds the rest. */
const MOST = 10_000;

/** Documents written with events and not yet handed over, by `<database>.<collection>`. */
const hinted = new Map<string, Set<unknown>>();

function namespaceOf(collection: Collection<Document>): string {
  return `${collection.dbName}.${collection.collectionName}`;
}

/**
 * Tells the relays of `collection` that the document `documentId` now carries an event: they read
 * it by its id instead of looking through the collection, which FerretDB does by reading every
 * document. Harmless when the write did not happen: the document is read and carries nothing.
 */
export function eventWritten<Doc extends Document>(
  collection: Collection<Doc>,
  documentId: unknown,
): void {
  const namespace = namespaceOf(collection as unknown as Collection<Document>);
  const ids = hinted.get(namespace) ?? new Set();
  if (ids.size < MOST) ids.add(documentId);
  hinted.set(namespace, ids);
}

/** Up to `limit` of the documents of `collection` written with events. */
export function hintedDocuments(collection: Collection<Document>, limit: number): unknown[] {
  return [...(hinted.get(namespaceOf(collection)) ?? [])].slice(0, limit);
}

/** Forgets the documents, read (and their events handed over, if they carried any). */
export function forgetHints(collection: Collection<Document>, documentIds: unknown[]): void {
  const ids = hinted.get(namespaceOf(collection));
  for (const id of documentIds) ids?.delete(id);
}
