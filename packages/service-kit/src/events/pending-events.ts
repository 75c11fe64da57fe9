import { randomUUID } from 'node:crypto';
import type { WebhookEventType } from '@petstore/contract';

/**
 * An event kept in the document it is about until it is handed to the gateway: written by the
 * same single-document update as the change itself, so it is never lost once the change is made.
 */
export interface PendingEvent {
  type: WebhookEventType;
  timestamp: Date;
  /** The owner of the resource, for events that only its account (and admins) may hear of. */
  accountId?: string;
  /**
   * What the event must show that the document may no longer say when the event is handed over
   * (the resource as it was, or the part that changed); the source reads the rest from the document.
   */
  data?: Record<string, unknown>;
}

/** The fields of a document that carry its pending events, by event id. */
export interface WithPendingEvents {
  pendingEvents?: Record<string, PendingEvent>;
  /** How many are pending, so that documents with some are found by an index. */
  pendingEventCount?: number;
}

export function newEventId(): string {
  return `evt_${randomUUID().replaceAll('-', '')}`;
}

/** The fields a new document carries to record `event` as it is inserted. */
export function withEvent(event: PendingEvent): Required<WithPendingEvents> {
  return { pendingEvents: { [newEventId()]: event }, pendingEventCount: 1 };
}

/**
 * What an update adds to record `event` in the document it changes: a `$set` and an `$inc` to
 * merge into the update's own.
 */
export function recordEvent(event: PendingEvent): {
  $set: Record<`pendingEvents.${string}`, PendingEvent>;
  $inc: { pendingEventCount: 1 };
} {
  return {
    $set: { [`pendingEvents.${newEventId()}`]: event },
    $inc: { pendingEventCount: 1 },
  };
}
