import { randomInt } from 'node:crypto';
import { timeOrderedId } from '@petstore/service-kit';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `randomInt` draws again past the largest multiple of 62, so no character is likelier. */
export function randomBase62(length: number): string {
  return Array.from({ length }, () => BASE62.charAt(randomInt(62))).join('');
}

export const newAccountId = () => `acct_${randomBase62(20)}`;
export const newKeyId = () => `key_${randomBase62(20)}`;
// Time-ordered: a message is written at every request, at the end of the `_id` index.
export const newMessageId = () => timeOrderedId('msg');
export const newWebhookId = () => `wh_${randomBase62(20)}`;
