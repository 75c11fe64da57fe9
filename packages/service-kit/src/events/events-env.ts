import type { z } from 'zod';
import { envHttpUrls, envInteger } from '../env-variables.js';

/**
 * The variables of a service whose events webhooks hear of: where to hand them, and how soon to
 * try again when the gateway did not take them.
 */
export const eventsEnv = {
  GATEWAY_URL: envHttpUrls('http://127.0.0.1:8080'),
  EVENT_RELAY_INTERVAL_MS: envInteger(1_000, { min: 10, max: 3_600_000 }),
};

export type EventsEnv = z.output<z.ZodObject<typeof eventsEnv>>;

/** The variables of `eventsEnv`, nested as the services' configs have them. */
export function eventsConfigOf(env: EventsEnv) {
  return {
    /** Where the gateway takes the events for webhooks (one address, or its replicas). */
    gateway: { urls: env.GATEWAY_URL },
    events: { relayIntervalMs: env.EVENT_RELAY_INTERVAL_MS },
  };
}
