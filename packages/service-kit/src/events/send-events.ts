import { createInternalClient, type RecordedEvent } from '@petstore/contract';

export interface EventSenderOptions {
  /** The gateway: one address, or each of its replicas. */
  baseUrls: string[];
  internalToken: string;
  timeoutMs: number;
}

/**
 * Hands events to the gateway (`POST /internal/events`), trying each of its replicas in turn until
 * one takes them; throws when none does, and the events stay where they are for the next try.
 */
export function eventSender({
  baseUrls,
  internalToken,
  timeoutMs,
}: EventSenderOptions): (events: RecordedEvent[]) => Promise<void> {
  let turn = 0;
  return async (events) => {
    const first = turn++;
    let failure: unknown;
    for (let attempt = 0; attempt < baseUrls.length; attempt++) {
      const baseUrl = baseUrls[(first + attempt) % baseUrls.length] ?? '';
      try {
        const answer = await createInternalClient({ baseUrl, internalToken }).events.recordEvents({
          body: { events },
          fetchOptions: { signal: AbortSignal.timeout(timeoutMs) },
        });
        if (answer.status === 202) return;
        failure = new Error(`[events] the gateway answered ${answer.status}`);
      } catch (error) {
        failure = error;
      }
    }
    throw new Error('[events] no gateway took the events', { cause: failure });
  };
}
