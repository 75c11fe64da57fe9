import { describe, expect, it } from 'vitest';
import {
  API_KEY_PATTERN,
  hashApiKey,
  keyPrefix,
  newApiKey,
} from './api-key-secret.js';
import {
  newAccountId,
  newKeyId,
  newMessageId,
  randomBase62,
} from '../database/ids.js';

describe('API keys', () => {
  it('are psk_ and 40 base62 characters, never twice the same', () => {
    const keys = new Set(Array.from({ length: 1000 }, newApiKey));
    expect(keys.size).toBe(1000);
    for (const key of keys) {
      expect(key).toMatch(/^psk_[A-Za-z0-9]{40}$/);
      expect(API_KEY_PATTERN.test(key)).toBe(true);
    }
  });

  it('are recognised by a 12-character prefix and stored as their SHA-256', () => {
    const key = 'psk_AbCdEfGh0123456789012345678901234567890';
    expect(keyPrefix(key)).toBe('psk_AbCdEfGh');
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    // The SHA-256 every stored key was hashed with: a change here would lock every key out.
    expect(hashApiKey(key)).toBe(
      '7fdcdd34119f93db2bd16a716195e7fe35550aef3193d2a93d67b02c77a8da33',
    );
  });

  it('rejects what is not shaped like a key', () => {
    for (const candidate of [
      '',
      'psk_',
      `psk_${'a'.repeat(31)}`,
      `psk_${'a'.repeat(31)}-`,
      `sk_${'a'.repeat(40)}`,
    ]) {
      expect(API_KEY_PATTERN.test(candidate), candidate).toBe(false);
    }
  });
});

describe('randomBase62', () => {
  it('uses every base62 character about equally often (no modulo bias)', () => {
    const counts = new Map<string, number>();
    for (const char of randomBase62(62 * 2000))
      counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 2000 expected per character; a biased mapping of bytes would push the first 8 to ~2500.
    for (const count of counts.values()) expect(count).toBeLessThan(2300);
  });

  it('makes ids with the contract’s prefixes', () => {
    expect(newAccountId()).toMatch(/^acct_[A-Za-z0-9]{20}$/);
    expect(newKeyId()).toMatch(/^key_[A-Za-z0-9]{20}$/);
    expect(newMessageId()).toMatch(/^msg_[0-9a-f]{32}$/);
  });
});
