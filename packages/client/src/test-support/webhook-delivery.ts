function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

/** A random `whsec_` secret, as the API makes them. */
export function newSecret(): string {
  return `whsec_${toBase64(crypto.getRandomValues(new Uint8Array(32)))}`;
}

export const secret = newSecret();
export const otherSecret = newSecret();
export const event = {
  id: 'evt_2Zk8qP4mT7xW1nBc',
  type: 'order.created',
  timestamp: '2026-01-15T09:30:00Z',
  data: {
    id: 1,
    petId: 1,
    quantity: 1,
    shipDate: '2026-01-15T09:30:00Z',
    complete: false,
  },
};
export const body = JSON.stringify(event);

/** `v1,<base64>`: the HMAC-SHA256 of `{id}.{timestamp}.{payload}` by the secret's bytes. */
export async function sign(
  key: string,
  id: string,
  timestamp: number,
  payload: string,
): Promise<string> {
  const bytes = Uint8Array.from(atob(key.slice('whsec_'.length)), (char) =>
    char.charCodeAt(0),
  );
  const hmac = await crypto.subtle.importKey(
    'raw',
    bytes,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const content = new TextEncoder().encode(`${id}.${timestamp}.${payload}`);
  const mac = await crypto.subtle.sign('HMAC', hmac, content);
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

/** The headers of a delivery of `body`, signed by each of `keys`. */
export async function delivery({
  keys = [secret],
  timestamp = Math.floor(Date.now() / 1000),
} = {}) {
  const signatures = await Promise.all(
    keys.map((key) => sign(key, event.id, timestamp, body)),
  );
  return {
    'webhook-id': event.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatures.join(' '),
  };
}
