import { randomUUID } from 'node:crypto';
import type { WebhookEventType } from '@petstore/contract';

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
  return `evt_${randomUUID().replaceAll('-', '')}`;
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

export function withEvent(event: PendingEvent): Required<WithPendingEvents> {
  return { pendingEvents: { [newEventId()]: event }, pendingEventCount: 1 };
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
