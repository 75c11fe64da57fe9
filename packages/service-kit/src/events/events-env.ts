import { z } from 'zod';
import { envHttpUrls, envInteger } from '../env-variables.js';

/** The variables of a service whose events webhooks hear of: where to hand them, how often to look. */
export function eventsEnv() {
  return {
    GATEWAY_URL: envHttpUrls('http://127.0.0.1:8080'),
    EVENT_RELAY_INTERVAL_MS: envInteger(10_000, { min: 10, max: 3_600_000 }),
  };
}

export type EventsEnv = z.output<z.ZodObject<ReturnType<typeof eventsEnv>>>;

/** The variables of `eventsEnv`, nested as the services' configs have them. */
export function eventsConfig(env: EventsEnv) {
  return {
    /** Where the gateway takes the events for webhooks (one address, or its replicas). */
    gateway: { urls: env.GATEWAY_URL },
    events: { relayIntervalMs: env.EVENT_RELAY_INTERVAL_MS },
  };
}
