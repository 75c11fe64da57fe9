import { randomUUID } from 'node:crypto';
import type { WebhookEventType } from '@petstore/contract';

/**
 * An event kept in the document it is about until it is handed to the gateway: written by the
 * same single-document update as the change itself, so it exists exactly when the change does.
 */
export interface PendingEvent {
  type: WebhookEventType;
  timestamp: Date;
  /** The owner of the resource, for events that only its account (and admins) may hear of. */
  accountId?: string;
  /**
   * The resource as the API showed it after the change, when the document may say otherwise by
   * the time the event is handed over; without it the source reads it from the document.
   */
  data?: Record<string, unknown>;
}

/** The fields of a document that carry its pending events, by event id. */
export interface WithPendingEvents {
  pendingEvents?: Record<string, PendingEvent>;
  /** How many are pending, so that documents with some are found by an index. */
  pendingEventCount?: number;
}

/** `evt_` and 32 hex digits. */
export function newEventId(): string {
  return `evt_${randomUUID().replaceAll('-', '')}`;
}

/** The path of one pending event in its document, e.g. to `$unset` it. */
function pendingEventPath(id: string): `pendingEvents.${string}` {
  return `pendingEvents.${id}`;
}

/** A filter on a document that still carries each of the events `ids`. */
export function carrying(ids: string[]): Record<`pendingEvents.${string}`, { $exists: true }> {
  return Object.fromEntries(ids.map((id) => [pendingEventPath(id), { $exists: true }]));
}

/** The update that takes the events `ids` off a document that carries them all. */
export function takenOff(ids: string[]): {
  $unset: Record<`pendingEvents.${string}`, ''>;
  $inc: { pendingEventCount: number };
} {
  return {
    $unset: Object.fromEntries(ids.map((id) => [pendingEventPath(id), ''])),
    $inc: { pendingEventCount: -ids.length },
  };
}

/** The fields a new document carries to record `event` as it is inserted. */
export function withEvent(event: PendingEvent): Required<WithPendingEvents> {
  return { pendingEvents: { [newEventId()]: event }, pendingEventCount: 1 };
}

/** An event recorded by an update: its id, and the `$set` and `$inc` to merge into the update's. */
export interface RecordedUpdate {
  id: string;
  $set: Record<`pendingEvents.${string}`, PendingEvent>;
  $inc: { pendingEventCount: 1 };
}

/** What an update adds to record `event` in the document it changes. */
export function recordEvent(event: PendingEvent): RecordedUpdate {
  const id = newEventId();
  return { id, $set: { [pendingEventPath(id)]: event }, $inc: { pendingEventCount: 1 } };
}
