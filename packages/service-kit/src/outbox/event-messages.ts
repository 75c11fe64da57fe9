import {
  createInternalClient,
  type InternalClient,
  type RecordedEvent,
  type WebhookEventType,
} from '@petstore/contract';
import { timeOrderedId } from '../time-ordered-id.js';
import { withFailover } from '../upstream/failover.js';
import { Replicas } from '../upstream/replicas.js';
import type { NewMessage, Sender } from './outbox.js';

/** The topic of the events the gateway turns into webhook deliveries. */
export const EVENTS_TOPIC = 'events';

/** An event that happened now: `data` is the resource as the API shows it after the change. */
export function newEvent(
  type: WebhookEventType,
  data: Record<string, unknown>,
  accountId?: string,
): RecordedEvent {
  const event = {
    id: timeOrderedId('evt'),
    type,
    timestamp: new Date().toISOString(),
    data,
  };
  return accountId === undefined ? event : { ...event, accountId };
}

/** Events as outbox messages, each stored under the event's own id. */
export function eventMessages(events: RecordedEvent[]): NewMessage[] {
  return events.map((event) => ({
    id: event.id,
    topic: EVENTS_TOPIC,
    payload: event,
  }));
}

/** How long a gateway has to take a batch before the next one is tried. */
const SEND_TIMEOUT_MS = 10_000;

/**
 * Sends events to the gateway's `POST /internal/events`, one gateway after another until one
 * takes them. Recording an event twice changes nothing there, so any failure, an answer other
 * than 202 too, goes on to the next gateway.
 */
export function eventsSender({
  baseUrls,
  internalToken,
}: {
  baseUrls: string[];
  internalToken: string;
}): Sender {
  const gateways = new Replicas(
    baseUrls.map((baseUrl) => createInternalClient({ baseUrl, internalToken })),
  );
  return async (messages) => {
    const events = messages.map((message) => message.payload as RecordedEvent);
    const send = async (client: InternalClient) => {
      const response = await client.events.recordEvents({
        body: { events },
        fetchOptions: { signal: AbortSignal.timeout(SEND_TIMEOUT_MS) },
      });
      if (response.status !== 202)
        throw new Error(`the gateway answered ${response.status}`);
    };
    try {
      await withFailover({ replicas: gateways, send, mayTryAgain: () => true });
    } catch (error) {
      throw new Error(`no gateway took ${events.length} events`, {
        cause: error,
      });
    }
  };
}
