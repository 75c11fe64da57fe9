import { describe, expect, it } from 'vitest';
import {
  newWebhookSecret,
  sealSecret,
  unsealSecret,
  webhookSecretsKey,
} from './webhook-secret.js';

const internalToken = 'x'.repeat(32);
const key = webhookSecretsKey(internalToken);

/** `sealed` with one bit of the byte at `index` of its part `part` (1 iv, 2 tag, 3 text) flipped. */
function flipBit(sealed: string, part: number, index = 0): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[part]!, 'base64url');
  bytes[index]! ^= 1;
  parts[part] = bytes.toString('base64url');
  return parts.join('.');
}

describe('newWebhookSecret', () => {
  it('is whsec_ and the base64 of 32 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(
      32,
    );
    expect(newWebhookSecret()).not.toBe(secret);
  });
});

describe('webhookSecretsKey', () => {
  it('is WEBHOOK_SECRETS_KEY when set', () => {
    const configured = Buffer.alloc(32, 7);
    expect(
      webhookSecretsKey(internalToken, configured.toString('base64')),
    ).toEqual(configured);
  });

  it('is derived from the internal token otherwise: 32 bytes, the same for every gateway', () => {
    expect(key).toHaveLength(32);
    expect(webhookSecretsKey(internalToken)).toEqual(key);
    expect(webhookSecretsKey('y'.repeat(32))).not.toEqual(key);
  });
});

describe('sealSecret / unsealSecret', () => {
  it('round-trips, never showing the secret and never sealing it twice alike', () => {
    const secret = newWebhookSecret();
    const sealed = sealSecret(secret, key);
    expect(sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(sealed).not.toContain(secret.slice('whsec_'.length, 20));
    expect(unsealSecret(sealed, key)).toBe(secret);
    expect(sealSecret(secret, key)).not.toBe(sealed);
  });

  it('detects tampering with the iv, the tag or the ciphertext', () => {
    const sealed = sealSecret(newWebhookSecret(), key);
    for (const part of [1, 2, 3]) {
      expect(() => unsealSecret(flipBit(sealed, part), key)).toThrow(
        'sealed webhook secret does not open with this key, or was altered',
      );
    }
  });

  it('refuses a truncated tag', () => {
    const [version, iv, tag, text] = sealSecret(newWebhookSecret(), key).split(
      '.',
    );
    const shortTag = Buffer.from(tag!, 'base64url')
      .subarray(0, 4)
      .toString('base64url');
    expect(() =>
      unsealSecret([version, iv, shortTag, text].join('.'), key),
    ).toThrow(/does not open/);
  });

  it('does not open under a different key', () => {
    const sealed = sealSecret(newWebhookSecret(), key);
    const other = webhookSecretsKey('z'.repeat(32));
    expect(() => unsealSecret(sealed, other)).toThrow(
      /does not open with this key/,
    );
  });

  it('refuses what is not a sealed secret', () => {
    expect(() => unsealSecret('whsec_plain', key)).toThrow(
      'sealed webhook secret is malformed',
    );
    expect(() => unsealSecret('v2.a.b.c', key)).toThrow(
      'sealed webhook secret is malformed',
    );
    expect(() => unsealSecret('v1.a.b.c.d', key)).toThrow(
      'sealed webhook secret is malformed',
    );
  });
});
