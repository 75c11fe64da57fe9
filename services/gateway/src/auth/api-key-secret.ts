import { hash, timingSafeEqual } from 'node:crypto';
import { API_KEY_PATTERN } from '../config.js';
import { randomBase62 } from '../database/random-ids.js';

/** How many characters of a key are kept in clear to recognise it by (`psk_AbCdEfGh`). */
const PREFIX_LENGTH = 12;

/** A new key: `psk_` and 40 random base62 characters (about 238 bits). */
export function newApiKey(): string {
  return `psk_${randomBase62(40)}`;
}

/** What is stored instead of the key: its SHA-256, in hex (one call: it runs on every request). */
export function hashApiKey(apiKey: string): string {
  return hash('sha256', apiKey, 'hex');
}

export function keyPrefix(apiKey: string): string {
  return apiKey.slice(0, PREFIX_LENGTH);
}

/** True when the string has the shape of a key, so that no garbage reaches the database. */
export function looksLikeApiKey(candidate: string): boolean {
  return API_KEY_PATTERN.test(candidate);
}

/** Compares two hex hashes in constant time. */
export function sameHash(stored: string, computed: string): boolean {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(computed, 'hex');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}
