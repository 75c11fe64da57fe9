import { hash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../database/ids.js';

/** The shape of every key this gateway issues or accepts. */
export const API_KEY_PATTERN = /^psk_[A-Za-z0-9]{32,128}$/;

/** `psk_` and 40 random base62 characters (about 238 bits). */
export function newApiKey(): string {
  return `psk_${randomBase62(40)}`;
}

/** What is stored instead of the key: its SHA-256, in hex. */
export function hashApiKey(apiKey: string): string {
  return hash('sha256', apiKey, 'hex');
}

/** The characters of a key kept in clear to recognise it by (`psk_AbCdEfGh`). */
export function keyPrefix(apiKey: string): string {
  return apiKey.slice(0, 12);
}

export function looksLikeApiKey(candidate: string): boolean {
  return API_KEY_PATTERN.test(candidate);
}

export function sameHash(stored: string, computed: string): boolean {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(computed, 'hex');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}
