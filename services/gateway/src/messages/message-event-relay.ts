import { eventRelay, type Logger, type Worker } from '@petstore/service-kit';
import type { EventRecorder } from '../webhooks/event-recorder.js';
import type { MessageRepository } from './message-repository.js';

export interface MessageEventRelayOptions {
  messages: MessageRepository;
  recorder: EventRecorder;
  logger: Logger;
  /** How often to look when nothing kicks the relay (events a dead process left behind). */
  pollMs: number;
}

/**
 * Records the `message.delivered` events that delivered messages carry, as pets and the store
 * relay theirs, but straight to this gateway's recorder; then takes them off their messages.
 */
export function messageEventRelay({
  messages,
  recorder,
  logger,
  pollMs,
}: MessageEventRelayOptions): Worker {
  return eventRelay({
    logger,
    sources: [messages.events()],
    send: async (events) => {
      await recorder.recordEvents(events);
    },
    idleMs: pollMs,
  });
}
