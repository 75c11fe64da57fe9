import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import { parseWebhookUrl, webhookLookup } from './url-policy.js';

export interface Attempt {
  url: string;
  /** The event's id, sent as `webhook-id`: receivers drop duplicates by it. */
  eventId: string;
  /** Unix seconds, sent as `webhook-timestamp` and signed with the body. */
  timestamp: number;
  body: string;
  /** The subscription's live secrets (`whsec_…`), newest first; each signs. */
  secrets: string[];
  allowPrivate: boolean;
  /** For the whole attempt: resolving, connecting, sending and reading the answer. */
  timeoutMs?: number;
}

export interface AttemptResult {
  /** A 2xx answered: delivered. */
  ok: boolean;
  /** The answer's status; null when none came. */
  statusCode: number | null;
  /** Why it failed, when the status alone does not say; never a secret or a signature. */
  error?: string;
}

const USER_AGENT = 'Petstore-Webhooks/1.0';
/** Receivers answer with little; more is read no further and the connection is closed. */
const MAX_ANSWER_BYTES = 64 * 1024;

function signatures({ eventId, timestamp, body, secrets }: Attempt): string {
  const date = new Date(timestamp * 1000);
  return secrets.map((secret) => new Webhook(secret).sign(eventId, date, body)).join(' ');
}

function resultOf(statusCode: number): AttemptResult {
  if (statusCode >= 200 && statusCode < 300) return { ok: true, statusCode };
  if (statusCode >= 300 && statusCode < 400) {
    return { ok: false, statusCode, error: 'redirects are not followed' };
  }
  return { ok: false, statusCode };
}

/**
 * POSTs one signed delivery (Standard Webhooks headers) and says how it went; never throws.
 * The URL's addresses are checked again as the connection is made.
 */
export function sendAttempt(attempt: Attempt): Promise<AttemptResult> {
  const { url, eventId, timestamp, body, allowPrivate, timeoutMs = 10_000 } = attempt;
  const policy = { allowPrivate };
  let target: URL;
  try {
    target = parseWebhookUrl(url, policy);
  } catch (error) {
    return Promise.resolve({ ok: false, statusCode: null, error: (error as Error).message });
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
    const finish = (result: AttemptResult) => {
      clearTimeout(timer);
      resolve(result);
      request.destroy();
    };
    const failed = (statusCode: number | null) => (error: Error) =>
      finish({ ok: false, statusCode, error: error.message });
    const timer = setTimeout(
      () => finish({ ok: false, statusCode: null, error: `timed out after ${timeoutMs / 1000} s` }),
      timeoutMs,
    );
    const request = send(target, {
      method: 'POST',
      headers,
      // A fresh connection each time, so every attempt goes through the lookup's check.
      agent: false,
      lookup: webhookLookup(policy),
    });
    request.on('error', failed(null));
    request.on('response', (answer: IncomingMessage) => {
      const statusCode = answer.statusCode ?? 0;
      let read = 0;
      answer.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_ANSWER_BYTES) finish(resultOf(statusCode));
      });
      answer.on('end', () => finish(resultOf(statusCode)));
      answer.on('error', failed(statusCode));
    });
    request.end(body);
  });
}
