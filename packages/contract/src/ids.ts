import type { ZodOpenAPIMetadata } from '@asteasolutions/zod-to-openapi';
import { z } from './zod.js';

const INT64_MAX = 9_223_372_036_854_775_807n;
const DECIMAL_ID = /^[0-9]{1,19}$/;

/**
 * An id in a body or a response: an int64 assigned by a counter. JSON numbers carry integers
 * exactly only up to 2^53 − 1, so a larger one is rejected (400) rather than silently rounded.
 */
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

/**
 * An id in a path or a query: 1–19 decimal digits within the int64 range, read exactly as a
 * bigint, so that an id past 2^53 is compared and named as sent (`pet 9007199254740993 not
 * found`), never rounded; anything that is not an int64 (sign, fraction, exponent, hex, spaces)
 * is 400. Clients send it as the decimal string it travels as.
 */
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

/**
 * The number a path or query id is looked up as, the type ids are stored with. Exact for every id
 * ever issued (counters stop at 2^53 − 1, see `IdSchema`); a larger id rounds to 2^53 or more,
 * which matches nothing stored, so it is simply not found.
 */
export function storedId(id: bigint): number {
  return Number(id);
}

function prefixedId(prefix: string, example: string) {
  return z
    .string()
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9]{1,64}$`), `must be an id starting with ${prefix}_`)
    .openapi({ example });
}

export const AccountIdSchema = prefixedId('acct', 'acct_7Hq2mZ9xK4pL1sVb');
export const ApiKeyIdSchema = prefixedId('key', 'key_3Jt8wQ5nR2cY6uDe');
export const MessageIdSchema = prefixedId('msg', 'msg_9Vb4kP7sT1xM3hQa');
export const WebhookIdSchema = prefixedId('wh', 'wh_5Nc2rT8yK1pZ4wQe');
export const WebhookDeliveryIdSchema = prefixedId('whd', 'whd_8Gm3xV6bL2qR9tYs');
export const EventIdSchema = prefixedId('evt', 'evt_2Zk8qP4mT7xW1nBc');
