import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
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

function refusal(
  host: string,
  address: string,
  { allowPrivate }: WebhookUrlPolicy,
) {
  const range = rangeOf(address);
  if (range === 'unicast' || (allowPrivate && PRIVATE_RANGES.has(range)))
    return undefined;
  const kind = `${address} (${range.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)})`;
  return invalid(
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
  if (isIP(host)) {
    const refused = refusal(host, host, policy);
    if (refused) throw refused;
  }
  return parsed;
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * A `lookup` for `http.request` that refuses the connection unless every address of the host
 * passes the policy: the address checked is the one connected to, whatever DNS said before.
 */
export function webhookLookup(policy: WebhookUrlPolicy): LookupFunction {
  return (hostname, options, callback) => {
    let finished = false;
    const finish = (error: Error | null, addresses: LookupAddress[] = []) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      const refused =
        error ??
        addresses
          .map(({ address }) => refusal(hostname, address, policy))
          .find(Boolean);
      if (refused) callback(refused, '');
      else if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    };
    const timer = setTimeout(() => {
      finish(
        invalid(`webhook URL host ${hostname} did not resolve within 2 s`),
      );
    }, LOOKUP_TIMEOUT_MS);
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      finish(
        error || addresses.length === 0
          ? invalid(`webhook URL host ${hostname} could not be resolved`)
          : null,
        addresses,
      );
    });
  };
}

/** 422 `invalid_webhook_url` saying why a webhook may not be sent to `url`. */
export async function checkWebhookUrl(
  url: string,
  policy: WebhookUrlPolicy,
): Promise<URL> {
  const parsed = parseWebhookUrl(url, policy);
  const host = hostOf(parsed);
  if (isIP(host)) return parsed;
  const lookup = webhookLookup(policy);
  await new Promise<void>((resolve, reject) => {
    lookup(host, { all: true }, (error) => {
      if (error) {
        reject(error);
      } else {
        resolve();
      }
    });
  });
  return parsed;
}
