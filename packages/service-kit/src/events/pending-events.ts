import type { RecordedEvent, WebhookEventType } from '@petstore/contract';
import { timeOrderedId } from '../time-ordered-id.js';

// Written by the same single-document update as the change, so it exists exactly when it does.
export interface PendingEvent {
  type: WebhookEventType;
  timestamp: Date;
  accountId?: string;
  /** The resource as the API showed it after the change, when the document may change again. */
  data?: Record<string, unknown>;
}

export interface WithPendingEvents {
  pendingEvents?: Record<string, PendingEvent>;
  /** So that documents with events are found by an index. */
  pendingEventCount?: number;
}

type EventPath = `pendingEvents.${string}`;

export function newEventId(): string {
  return timeOrderedId('evt');
}

export function carrying(ids: string[]): Record<EventPath, { $exists: true }> {
  return Object.fromEntries(ids.map((id) => [`pendingEvents.${id}`, { $exists: true }]));
}

export function takenOff(ids: string[]): {
  $unset: Record<EventPath, ''>;
  $inc: { pendingEventCount: number };
} {
  return {
    $unset: Object.fromEntries(ids.map((id) => [`pendingEvents.${id}`, ''])),
    $inc: { pendingEventCount: -ids.length },
  };
}

/** The fields of a new document carrying the event `id`. */
export function withEvent(id: string, event: PendingEvent): Required<WithPendingEvents> {
  return { pendingEvents: { [id]: event }, pendingEventCount: 1 };
}

export interface RecordedUpdate {
  id: string;
  $set: Record<EventPath, PendingEvent>;
  $inc: { pendingEventCount: 1 };
}

export function recordEvent(event: PendingEvent): RecordedUpdate {
  const id = newEventId();
  return { id, $set: { [`pendingEvents.${id}`]: event }, $inc: { pendingEventCount: 1 } };
}

/**
 * The event `id` as the relay sends it: `data` is the resource as the API shows it after the
 * change; `accountId` whose it is, when not the event's own.
 */
export function toRecordedEvent(
  id: string,
  { type, timestamp, accountId: own }: PendingEvent,
  data: Record<string, unknown>,
  accountId = own,
): RecordedEvent {
  return {
    id,
    type,
    timestamp: new Date(timestamp).toISOString(),
    data,
    ...(accountId === undefined ? {} : { accountId }),
  };
}
