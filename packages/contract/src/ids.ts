import type { ZodOpenAPIMetadata } from '@asteasolutions/zod-to-openapi';
import { z } from './zod.js';

const INT64_MAX = 9_223_372_036_854_775_807n;
const DECIMAL_ID = /^[0-9]{1,19}$/;

/** An id in a body or a response; past 2^53 − 1 JSON would round it, so it is refused. */
export const IdSchema = z
  .number()
  .int()
  .min(0)
  .max(Number.MAX_SAFE_INTEGER)
  .openapi({ format: 'int64', example: 1 });

/** The document shows a path or query id as the int64 it stands for, example included. */
const int64Parameter: ZodOpenAPIMetadata = {
  type: 'integer',
  format: 'int64',
  minimum: 0,
  example: 1,
};

/** An id in a path or a query: an int64 read exactly as a bigint, so it is named as sent. */
export const IdParamSchema = z
  .string()
  .transform((value, ctx) => {
    if (!DECIMAL_ID.test(value) || BigInt(value) > INT64_MAX) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: 'must be an integer from 0 to 9223372036854775807',
      });
      return z.NEVER;
    }
    return BigInt(value);
  })
  .openapi(int64Parameter);

/** The stored number of an id; one past 2^53 − 1 was never issued, so it is not found. */
export function storedId(id: bigint): number {
  return Number(id);
}

function prefixedId(prefix: string, example: string) {
  return z
    .string()
    .regex(
      new RegExp(`^${prefix}_[A-Za-z0-9]{1,64}$`),
      `must be an id starting with ${prefix}_`,
    )
    .openapi({ example });
}

export const AccountIdSchema = prefixedId('acct', 'acct_7Hq2mZ9xK4pL1sVb');
export const ApiKeyIdSchema = prefixedId('key', 'key_3Jt8wQ5nR2cY6uDe');
export const MessageIdSchema = prefixedId('msg', 'msg_9Vb4kP7sT1xM3hQa');
export const WebhookIdSchema = prefixedId('wh', 'wh_5Nc2rT8yK1pZ4wQe');
export const WebhookDeliveryIdSchema = prefixedId(
  'whd',
  'whd_8Gm3xV6bL2qR9tYs',
);
export const EventIdSchema = prefixedId('evt', 'evt_2Zk8qP4mT7xW1nBc');
