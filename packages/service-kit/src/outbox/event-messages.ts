import type { RecordedEvent } from '@petstore/contract';
import type { NewMessage, OutboxMessage } from './outbox.js';

/** The topic of the events the gateway turns into webhook deliveries. */
export const EVENTS_TOPIC = 'events';

/** An event as an outbox message, stored under the event's own id. */
export function eventMessages(events: RecordedEvent[]): NewMessage[] {
  return events.map((event) => ({ id: event.id, topic: EVENTS_TOPIC, payload: event }));
}

export function eventsOf(messages: OutboxMessage[]): RecordedEvent[] {
  return messages.map((message) => message.payload as RecordedEvent);
}
