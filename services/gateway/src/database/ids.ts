import { randomBytes } from 'node:crypto';
import { timeOrderedId } from '@petstore/service-kit';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Bytes from the largest multiple of 62 up are drawn again, so no character is likelier. */
const UNBIASED_LIMIT = 62 * 4;

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
// Time-ordered: a message is written at every request, at the end of the `_id` index.
export const newMessageId = () => timeOrderedId('msg');
export const newWebhookId = () => `wh_${randomBase62(20)}`;
