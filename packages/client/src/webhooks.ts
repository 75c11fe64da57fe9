import { createHmac, timingSafeEqual } from 'node:crypto';
import { PetstoreWebhookError } from './errors.js';
import type { WebhookEvent } from './types.js';

/** A request's headers: a fetch `Headers`, or Node's `req.headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface ConstructEventOptions {
  /** How many seconds `webhook-timestamp` may be from now, either way. Default 300. */
  tolerance?: number;
}

function isHeaders(headers: WebhookHeaders): headers is Headers {
  return typeof headers.get === 'function';
}

function header(headers: WebhookHeaders, name: string): string {
  const value = isHeaders(headers)
    ? headers.get(name)
    : Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  const text = Array.isArray(value) ? value.join(' ') : value;
  if (!text) throw new PetstoreWebhookError(`The webhook request has no ${name} header`);
  return text;
}

/** A secret's key: the bytes of the base64 after `whsec_`. */
function key(secret: string): Buffer {
  const bytes = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  if (bytes.length === 0) throw new PetstoreWebhookError('The webhook secret is empty');
  return bytes;
}

/** The `v1` signatures of a `webhook-signature` header (`v1,<base64> v1,<base64>`). */
function signatures(header: string): Buffer[] {
  return header.split(' ').flatMap((entry) => {
    const [version, value] = entry.split(',');
    return version === 'v1' && value ? [Buffer.from(value, 'base64')] : [];
  });
}

function checkTimestamp(timestamp: string, tolerance: number): void {
  if (!/^\d+$/.test(timestamp)) {
    throw new PetstoreWebhookError(`The webhook-timestamp is not unix seconds: ${timestamp}`);
  }
  const age = Math.floor(Date.now() / 1000) - Number(timestamp);
  if (Math.abs(age) > tolerance) {
    const when = age > 0 ? `${age} s old` : `${-age} s in the future`;
    throw new PetstoreWebhookError(
      `The webhook-timestamp is ${when}, more than the tolerance of ${tolerance} s`,
    );
  }
}

/**
 * Checks a delivery as Standard Webhooks signs it and returns its event: the HMAC-SHA256 of
 * `{webhook-id}.{webhook-timestamp}.{body}` must match one `v1` signature, by any of the secrets
 * (two while a secret is rotated), and the timestamp must be within the tolerance.
 * Throws a PetstoreWebhookError otherwise.
 */
export function constructEvent(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | string[],
  { tolerance = 300 }: ConstructEventOptions = {},
): WebhookEvent {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const given = signatures(header(headers, 'webhook-signature'));
  checkTimestamp(timestamp, tolerance);

  const body = typeof rawBody === 'string' ? Buffer.from(rawBody) : Buffer.from(rawBody);
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new PetstoreWebhookError('No webhook secret was given');
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]);
  const expected = secrets.map((s) => createHmac('sha256', key(s)).update(signed).digest());
  const matches = given.some((g) =>
    expected.some((e) => e.length === g.length && timingSafeEqual(e, g)),
  );
  if (!matches) {
    throw new PetstoreWebhookError(
      'No webhook-signature matches the secret: check the secret, and pass the raw body as received',
    );
  }

  let event: unknown;
  try {
    event = JSON.parse(body.toString('utf8'));
  } catch (cause) {
    throw new PetstoreWebhookError('The webhook body is not JSON', { cause });
  }
  if (typeof (event as { type?: unknown } | null)?.type !== 'string') {
    throw new PetstoreWebhookError('The webhook body is not an event: it has no type');
  }
  return event as WebhookEvent;
}
