import { Webhook } from 'standardwebhooks';
import { Agent, request } from 'undici';
import { parseWebhookUrl, webhookLookup } from './url-policy.js';

export interface Attempt {
  url: string;
  eventId: string;
  /** Unix seconds. */
  timestamp: number;
  body: string;
  /** The subscription's live secrets, newest first; each signs. */
  secrets: string[];
  allowPrivate: boolean;
  /** For the whole attempt: resolving, connecting, sending and reading the response. */
  timeoutMs?: number;
}

/** `error` says why when the status alone does not; never a secret or a signature. */
export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error?: string;
}

/** Past this much of a response, the connection is closed. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Connections to each receiver are kept and used again, one pool per policy. Each is checked
 * against the address policy by the lookup when it is made; one made stays with its address.
 */
const agentOf = (allowPrivate: boolean) =>
  new Agent({ connect: { lookup: webhookLookup({ allowPrivate }) } });
const agents = { public: agentOf(false), private: agentOf(true) };

export const failure = (error: unknown): AttemptResult => ({
  ok: false,
  statusCode: null,
  error: (error as Error).message,
});

/** POSTs one signed delivery and says how it went; never throws. Redirects are not followed. */
export async function sendAttempt(attempt: Attempt): Promise<AttemptResult> {
  const {
    eventId,
    timestamp,
    body,
    allowPrivate,
    timeoutMs = 10_000,
  } = attempt;
  const date = new Date(timestamp * 1000);
  const signal = AbortSignal.timeout(timeoutMs);
  let answered: number | null = null;
  try {
    const target = parseWebhookUrl(attempt.url, { allowPrivate });
    const { statusCode, body: answer } = await request(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Petstore-Webhooks/1.0',
        'webhook-id': eventId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': attempt.secrets
          .map((secret) => new Webhook(secret).sign(eventId, date, body))
          .join(' '),
      },
      body,
      dispatcher: allowPrivate ? agents.private : agents.public,
      signal,
    });
    answered = statusCode;
    // An answer read to its end keeps its connection; leaving the loop early closes it.
    let read = 0;
    for await (const chunk of answer as AsyncIterable<Buffer>) {
      read += chunk.length;
      if (read >= MAX_RESPONSE_BYTES) break;
    }
    if (statusCode >= 200 && statusCode < 300) return { ok: true, statusCode };
    if (statusCode < 300 || statusCode >= 400) return { ok: false, statusCode };
    return { ok: false, statusCode, error: 'redirects are not followed' };
  } catch (error) {
    if (!signal.aborted) return { ...failure(error), statusCode: answered };
    return failure(new Error(`timed out after ${timeoutMs / 1000} s`));
  }
}
