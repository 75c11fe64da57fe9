import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
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

const USER_AGENT = 'Petstore-Webhooks/1.0';
/** Past this much of a response, the connection is closed. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Connections to each receiver are kept and used again. Each is checked against the address
 * policy by the lookup when it is made; one made stays with the address it was made to.
 */
const agents = {
  'http:': new HttpAgent({ keepAlive: true }),
  'https:': new HttpsAgent({ keepAlive: true }),
};

function signatures({ eventId, timestamp, body, secrets }: Attempt): string {
  const date = new Date(timestamp * 1000);
  return secrets
    .map((secret) => new Webhook(secret).sign(eventId, date, body))
    .join(' ');
}

function resultOf(statusCode: number): AttemptResult {
  if (statusCode >= 200 && statusCode < 300) return { ok: true, statusCode };
  if (statusCode >= 300 && statusCode < 400) {
    return { ok: false, statusCode, error: 'redirects are not followed' };
  }
  return { ok: false, statusCode };
}

/** POSTs one signed delivery and says how it went; never throws. */
export function sendAttempt(attempt: Attempt): Promise<AttemptResult> {
  const {
    url,
    eventId,
    timestamp,
    body,
    allowPrivate,
    timeoutMs = 10_000,
  } = attempt;
  const policy = { allowPrivate };
  let target: URL;
  try {
    target = parseWebhookUrl(url, policy);
  } catch (error) {
    return Promise.resolve({
      ok: false,
      statusCode: null,
      error: (error as Error).message,
    });
  }
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'user-agent': USER_AGENT,
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatures(attempt),
  };

  return new Promise((resolve) => {
    // A connection whose answer was read to its end is kept; any other is closed.
    const finish = (result: AttemptResult, { keep = false } = {}) => {
      clearTimeout(timer);
      resolve(result);
      if (!keep) request.destroy();
    };
    const failed = (statusCode: number | null) => (error: Error) => {
      finish({ ok: false, statusCode, error: error.message });
    };
    const timer = setTimeout(() => {
      finish({
        ok: false,
        statusCode: null,
        error: `timed out after ${timeoutMs / 1000} s`,
      });
    }, timeoutMs);
    const request = send(target, {
      method: 'POST',
      headers,
      agent: agents[target.protocol as keyof typeof agents],
      lookup: webhookLookup(policy),
    });
    request.on('error', failed(null));
    request.on('response', (response: IncomingMessage) => {
      const statusCode = response.statusCode ?? 0;
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_RESPONSE_BYTES) finish(resultOf(statusCode));
      });
      response.on('end', () => {
        finish(resultOf(statusCode), { keep: true });
      });
      response.on('error', failed(statusCode));
    });
    request.end(body);
  });
}
