import { PetstoreWebhookError } from './errors.js';
import type { WebhookEvent } from './types.js';

/** A request's headers: a fetch `Headers`, or Node's `req.headers`. */
export type WebhookHeaders =
  Headers | Record<string, string | string[] | undefined>;

/** A delivery's body exactly as received: text, or its bytes (a Node `Buffer` is one). */
export type WebhookBody = string | Uint8Array | ArrayBuffer;

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
  if (!text)
    throw new PetstoreWebhookError(`The webhook request has no ${name} header`);
  return text;
}

/** The bytes of standard base64, or undefined for text that is not base64. */
function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** A secret's HMAC-SHA256 key: the bytes of the base64 after `whsec_`. */
function key(secret: string) {
  const bytes = fromBase64(secret.replace(/^whsec_/, ''));
  if (!bytes)
    throw new PetstoreWebhookError(
      'The webhook secret is not whsec_ and base64',
    );
  if (bytes.length === 0)
    throw new PetstoreWebhookError('The webhook secret is empty');
  const algorithm = { name: 'HMAC', hash: 'SHA-256' };
  return globalThis.crypto.subtle.importKey('raw', bytes, algorithm, false, [
    'verify',
  ]);
}

/** The `v1` signatures of a `webhook-signature` header (`v1,<base64> v1,<base64>`). */
function signatures(header: string): Uint8Array<ArrayBuffer>[] {
  return header.split(' ').flatMap((entry) => {
    const [version, value] = entry.split(',');
    const bytes = version === 'v1' && value ? fromBase64(value) : undefined;
    return bytes ? [bytes] : [];
  });
}

function checkTimestamp(timestamp: string, tolerance: number): void {
  if (!/^\d+$/.test(timestamp)) {
    throw new PetstoreWebhookError(
      `The webhook-timestamp is not unix seconds: ${timestamp}`,
    );
  }
  const age = Math.floor(Date.now() / 1000) - Number(timestamp);
  if (Math.abs(age) > tolerance) {
    const when = age > 0 ? `${age} s old` : `${-age} s in the future`;
    throw new PetstoreWebhookError(
      `The webhook-timestamp is ${when}, more than the tolerance of ${tolerance} s`,
    );
  }
}

function bytesOf(body: WebhookBody): Uint8Array {
  if (typeof body === 'string') return new TextEncoder().encode(body);
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}

/** `{id}.{timestamp}.{body}`, the bytes Standard Webhooks signs. */
function signedContent(
  id: string,
  timestamp: string,
  body: Uint8Array,
): Uint8Array<ArrayBuffer> {
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  return signed;
}

/**
 * Checks a delivery as Standard Webhooks signs it and resolves to its event: the HMAC-SHA256 of
 * `{webhook-id}.{webhook-timestamp}.{body}` must match one `v1` signature, by any of the secrets
 * (two while a secret is rotated), and the timestamp must be within the tolerance. Signatures are
 * compared by Web Crypto's `verify`, which takes the same time whatever bytes differ.
 * Rejects with a PetstoreWebhookError otherwise.
 */
export async function constructEvent(
  rawBody: WebhookBody,
  headers: WebhookHeaders,
  secret: string | string[],
  { tolerance = 300 }: ConstructEventOptions = {},
): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const given = signatures(header(headers, 'webhook-signature'));
  checkTimestamp(timestamp, tolerance);

  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0)
    throw new PetstoreWebhookError('No webhook secret was given');
  const keys = await Promise.all(secrets.map(key));
  const body = bytesOf(rawBody);
  const signed = signedContent(id, timestamp, body);
  const checks = keys.flatMap((k) =>
    given.map((signature) =>
      globalThis.crypto.subtle.verify('HMAC', k, signature, signed),
    ),
  );
  if (!(await Promise.all(checks)).includes(true)) {
    throw new PetstoreWebhookError(
      'No webhook-signature matches the secret: check the secret, and pass the raw body as received',
    );
  }

  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder().decode(body));
  } catch (cause) {
    throw new PetstoreWebhookError('The webhook body is not JSON', { cause });
  }
  if (typeof (event as { type?: unknown } | null)?.type !== 'string') {
    throw new PetstoreWebhookError(
      'The webhook body is not an event: it has no type',
    );
  }
  return event as WebhookEvent;
}
