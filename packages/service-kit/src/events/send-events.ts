import { createInternalClient, type RecordedEvent } from '@petstore/contract';

export interface EventSenderOptions {
  /** The gateway: one address, or each of its replicas. */
  baseUrls: string[];
  internalToken: string;
  /** How long one replica has to take a batch. */
  timeoutMs?: number;
}

/**
 * Hands events to the gateway (`POST /internal/events`), trying each of its replicas in turn until
 * one takes them (202); throws when none does, and the events stay where they are for the next try.
 */
export function eventSender({
  baseUrls,
  internalToken,
  timeoutMs = 10_000,
}: EventSenderOptions): (events: RecordedEvent[]) => Promise<void> {
  const clients = baseUrls.map((baseUrl) => createInternalClient({ baseUrl, internalToken }));
  let turn = 0;
  return async (events) => {
    const first = turn++;
    let failure: unknown;
    for (let attempt = 0; attempt < clients.length; attempt++) {
      const client = clients[(first + attempt) % clients.length];
      try {
        const answer = await client!.events.recordEvents({
          body: { events },
          fetchOptions: { signal: AbortSignal.timeout(timeoutMs) },
        });
        if (answer.status === 202) return;
        failure = new Error(`the gateway answered ${answer.status}`);
      } catch (error) {
        failure = error;
      }
    }
    throw new Error(`no gateway took ${events.length} events`, { cause: failure });
  };
}
