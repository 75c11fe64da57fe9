import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { AppError } from '@petstore/service-kit';
import ipaddr from 'ipaddr.js';

export interface WebhookUrlPolicy {
  allowPrivate: boolean;
}

const LOOKUP_TIMEOUT_MS = 2_000;

function invalid(message: string): AppError {
  return new AppError('invalid_webhook_url', message);
}

/** What `allowPrivate` opens; link-local (cloud metadata), multicast, reserved stay refused. */
const PRIVATE_RANGES = new Set([
  'loopback',
  'private',
  'uniqueLocal',
  'carrierGradeNat',
]);
/** IPv6's global unicast: past it, what ipaddr.js calls unicast is reserved or deprecated. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

function rangeOf(address: string): string {
  // process() turns an IPv4-mapped IPv6 address (::ffff:127.0.0.1) into the IPv4 one it carries.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range !== 'unicast' || parsed.kind() === 'ipv4') return range;
  // The deprecated IPv4-compatible ::/96 (::7f00:1 is 127.0.0.1), among others.
  return (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST) ? range : 'reserved';
}

function refuseUnlessAllowed(
  host: string,
  address: string,
  { allowPrivate }: WebhookUrlPolicy,
): void {
  const range = rangeOf(address);
  if (range === 'unicast' || (allowPrivate && PRIVATE_RANGES.has(range)))
    return;
  const kind = `${address} (${range.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)})`;
  throw invalid(
    host === address
      ? `webhook URL address ${kind} is not a public address`
      : `webhook URL host ${host} resolves to ${kind}, not a public address`,
  );
}

/** The checks that need no DNS; a connection to an address skips `webhookLookup`. */
export function parseWebhookUrl(url: string, policy: WebhookUrlPolicy): URL {
  if (!URL.canParse(url)) throw invalid('webhook URL is not an absolute URL');
  const parsed = new URL(url);
  const schemes = policy.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(parsed.protocol)) {
    throw invalid(
      `webhook URL must use ${schemes.map((s) => s.slice(0, -1)).join(' or ')}`,
    );
  }
  if (parsed.username || parsed.password) {
    throw invalid('webhook URL must not contain a username or password');
  }
  const host = hostOf(parsed);
  if (isIP(host)) refuseUnlessAllowed(host, host, policy);
  return parsed;
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Every address of `host` (as `dns.lookup` finds them with `options`), once each passes. */
async function lookUpChecked(
  host: string,
  policy: WebhookUrlPolicy,
  options: LookupOptions = {},
): Promise<LookupAddress[]> {
  // Cancelled once the lookup answers, so that no timer outlives it.
  const answered = new AbortController();
  const { signal } = answered;
  const late = delay(LOOKUP_TIMEOUT_MS, [], { ref: false, signal }).then(
    () => {
      throw invalid(`webhook URL host ${host} did not resolve within 2 s`);
    },
    () => [],
  );
  const found = lookup(host, { ...options, all: true }).catch(() => []);
  const addresses = await Promise.race([found, late]);
  answered.abort();
  if (addresses.length === 0)
    throw invalid(`webhook URL host ${host} could not be resolved`);
  for (const { address } of addresses)
    refuseUnlessAllowed(host, address, policy);
  return addresses;
}

/**
 * A `lookup` for `http.request` that refuses the connection unless every address of the host
 * passes the policy: the address checked is the one connected to, whatever DNS said before.
 */
export function webhookLookup(policy: WebhookUrlPolicy): LookupFunction {
  return (hostname, options, callback) => {
    lookUpChecked(hostname, policy, options).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: Error) => {
        callback(error, '');
      },
    );
  };
}

/** 422 `invalid_webhook_url` saying why a webhook may not be sent to `url`. */
export async function checkWebhookUrl(
  url: string,
  policy: WebhookUrlPolicy,
): Promise<URL> {
  const parsed = parseWebhookUrl(url, policy);
  const host = hostOf(parsed);
  if (!isIP(host)) await lookUpChecked(host, policy);
  return parsed;
}
