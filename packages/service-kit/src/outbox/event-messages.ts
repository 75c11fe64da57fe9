import {
  createInternalClient,
  type RecordedEvent,
  type WebhookEventType,
} from '@petstore/contract';
import { timeOrderedId } from '../time-ordered-id.js';
import type { Sender } from './outbox-relay.js';
import type { NewMessage } from './outbox.js';

/** The topic of the events the gateway turns into webhook deliveries. */
export const EVENTS_TOPIC = 'events';

/** An event that happened now: `data` is the resource as the API shows it after the change. */
export function newEvent(
  type: WebhookEventType,
  data: Record<string, unknown>,
  accountId?: string,
): RecordedEvent {
  const event = { id: timeOrderedId('evt'), type, timestamp: new Date().toISOString(), data };
  return accountId === undefined ? event : { ...event, accountId };
}

/** Events as outbox messages, each stored under the event's own id. */
export function eventMessages(events: RecordedEvent[]): NewMessage[] {
  return events.map((event) => ({ id: event.id, topic: EVENTS_TOPIC, payload: event }));
}

export interface EventsSenderOptions {
  baseUrls: string[];
  internalToken: string;
  timeoutMs?: number;
}

/**
 * Sends events to the gateway's `POST /internal/events`, one gateway after another until one
 * takes them. Recording an event twice changes nothing there.
 */
export function eventsSender(options: EventsSenderOptions): Sender {
  const { baseUrls, internalToken, timeoutMs = 10_000 } = options;
  const clients = baseUrls.map((baseUrl) => createInternalClient({ baseUrl, internalToken }));
  let turn = 0;
  return async (messages) => {
    const events = messages.map((message) => message.payload as RecordedEvent);
    const first = turn++;
    let failure: unknown;
    for (let attempt = 0; attempt < clients.length; attempt++) {
      const client = clients[(first + attempt) % clients.length];
      try {
        const response = await client!.events.recordEvents({
          body: { events },
          fetchOptions: { signal: AbortSignal.timeout(timeoutMs) },
        });
        if (response.status === 202) return;
        failure = new Error(`the gateway answered ${response.status}`);
      } catch (error) {
        failure = error;
      }
    }
    throw new Error(`no gateway took ${events.length} events`, { cause: failure });
  };
}
