import type { Collection, Document } from 'mongodb';

/** The most documents remembered per collection; past it the relay's look through it finds the rest. */
const MOST = 10_000;

/**
 * Documents written with events and not yet handed over, by `<database>.<collection>`, each with
 * the number of its latest write: a document written again after the relay read it stays named.
 */
const hinted = new Map<string, Map<unknown, number>>();
let writes = 0;

function namespaceOf(collection: Collection<Document>): string {
  return `${collection.dbName}.${collection.collectionName}`;
}

/** A document written with events, as the relay read it. */
export type Hint = [documentId: unknown, write: number];

/**
 * Tells the relays of `collection` that the document `documentId` now carries an event: they read
 * it by its id instead of looking through the collection, which reads every document.
 * Harmless when the write did not happen: the document is read and carries nothing.
 */
export function eventWritten<Doc extends Document>(
  collection: Collection<Doc>,
  documentId: unknown,
): void {
  const namespace = namespaceOf(collection as unknown as Collection<Document>);
  const ids = hinted.get(namespace) ?? new Map<unknown, number>();
  if (ids.size < MOST || ids.has(documentId)) ids.set(documentId, ++writes);
  hinted.set(namespace, ids);
}

/** Up to `limit` of the documents of `collection` written with events. */
export function hintedDocuments(collection: Collection<Document>, limit: number): Hint[] {
  return [...(hinted.get(namespaceOf(collection)) ?? [])].slice(0, limit);
}

/** Forgets the documents as they were read, unless written again since. */
export function forgetHints(collection: Collection<Document>, hints: Hint[]): void {
  const ids = hinted.get(namespaceOf(collection));
  for (const [id, write] of hints) if (ids?.get(id) === write) ids.delete(id);
}

/**
 * Whether any write ever named a document of `collection`: the relay of a collection whose writes
 * never do looks through it at every kick.
 */
export function namesDocuments(collection: Collection<Document>): boolean {
  return hinted.has(namespaceOf(collection));
}
