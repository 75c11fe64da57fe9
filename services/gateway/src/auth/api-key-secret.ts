import { hash } from 'node:crypto';
import type { Caller } from '@petstore/service-kit';
import type { ApiKeyDocument } from '../database/collections.js';
import { newKeyId, randomBase62 } from '../database/ids.js';

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

/** What is kept of a key: its hash, and its first characters to recognise it by. */
export function storedKey(apiKey: string) {
  return { hash: hashApiKey(apiKey), prefix: keyPrefix(apiKey) };
}

/** A new key of an account's: the key, shown once, and the document that stores its hash. */
export function issueApiKey({ accountId, role }: Caller) {
  const apiKey = newApiKey();
  const document: ApiKeyDocument = {
    _id: newKeyId(),
    accountId,
    role,
    ...storedKey(apiKey),
    createdAt: new Date(),
    lastUsedAt: null,
    revokedAt: null,
  };
  return { apiKey, document };
}

export type IssuedApiKey = ReturnType<typeof issueApiKey>;
