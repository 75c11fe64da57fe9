import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The largest multiple of 62 that fits in a byte: bytes from here up are thrown away. */
const UNBIASED_LIMIT = 62 * 4;

/**
 * `length` uniformly random base62 characters from the system's CSPRNG. Bytes of 248 and above
 * are rejected rather than reduced modulo 62, so no character is likelier than another.
 */
export function randomBase62(length: number): string {
  let result = '';
  while (result.length < length) {
    for (const byte of randomBytes(length - result.length + 8)) {
      if (byte < UNBIASED_LIMIT) result += BASE62.charAt(byte % 62);
      if (result.length === length) break;
    }
  }
  return result;
}

export const newAccountId = () => `acct_${randomBase62(20)}`;
export const newKeyId = () => `key_${randomBase62(20)}`;
export const newMessageId = () => `msg_${randomBase62(20)}`;
export const newWebhookId = () => `wh_${randomBase62(20)}`;
