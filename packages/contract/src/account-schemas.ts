import {
  EMAIL_DESCRIPTION,
  EMAIL_PATTERN,
  EmailSchema,
  hasShortLocalPart,
  LOCAL_PART_MESSAGE,
} from './email-address.js';
import { AccountIdSchema, ApiKeyIdSchema } from './ids.js';
import { lengthInCodePoints, NOT_BLANK_PATTERN } from './text.js';
import { TimestampSchema } from './timestamps.js';
import { z } from './zod.js';

const EMAIL_EXAMPLE = 'jane@example.com';
const API_KEY_EXAMPLE = 'psk_8Zq3VtK1mW7xR2cN5bH9jL4pD6fS0aYe';
const KEY_PREFIX_EXAMPLE = 'psk_8Zq3Vt';

export const RoleSchema = z.enum(['customer', 'admin']).openapi('Role', {
  description: 'Accounts created through the API are customers; the admin key is configured.',
  example: 'customer',
});
export type Role = z.infer<typeof RoleSchema>;

export const NewAccountSchema = z
  .object({
    email: z
      .string()
      .trim()
      .toLowerCase()
      .max(254)
      .regex(EMAIL_PATTERN, 'must be an email address')
      .refine(hasShortLocalPart, LOCAL_PART_MESSAGE)
      .openapi({
        format: 'email',
        description: `${EMAIL_DESCRIPTION} Surrounding spaces are trimmed and the address is stored lower-cased; one account each.`,
        example: EMAIL_EXAMPLE,
      }),
    name: lengthInCodePoints(z.string().trim(), { min: 1, max: 100 }).optional().openapi({
      pattern: NOT_BLANK_PATTERN,
      description: '1–100 characters (Unicode code points), trimmed.',
      example: 'Jane Doe',
    }),
  })
  .openapi('NewAccount');
export type NewAccount = z.infer<typeof NewAccountSchema>;

const accountFields = {
  id: AccountIdSchema,
  email: EmailSchema.openapi({ format: 'email', example: EMAIL_EXAMPLE }),
  name: z
    .string()
    .nullable()
    .openapi({ description: 'Null when none was given.', example: 'Jane Doe' }),
  role: RoleSchema,
  createdAt: TimestampSchema,
};

const apiKeySecret = z
  .string()
  .regex(/^psk_[A-Za-z0-9]{32,}$/)
  .openapi({
    description:
      'The key itself (`psk_` and random base62), shown this once: only its hash is kept.',
    example: API_KEY_EXAMPLE,
  });

const keyPrefix = z.string().openapi({
  description: 'The first characters of the key, to recognise it by.',
  example: KEY_PREFIX_EXAMPLE,
});

export const AccountSchema = z.object(accountFields).openapi('Account');
export type Account = z.infer<typeof AccountSchema>;

export const CreatedAccountSchema = z
  .object({ ...accountFields, apiKey: apiKeySecret })
  .openapi('CreatedAccount', { description: 'The new account and its first API key.' });
export type CreatedAccount = z.infer<typeof CreatedAccountSchema>;

export const ApiKeySchema = z
  .object({
    id: ApiKeyIdSchema,
    prefix: keyPrefix,
    createdAt: TimestampSchema,
    lastUsedAt: TimestampSchema.nullable().openapi({
      description: 'Null until the key is first used.',
      example: '2026-01-16T08:00:00Z',
    }),
  })
  .openapi('ApiKey', { description: 'A key of the account, never the key itself.' });
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const CreatedApiKeySchema = z
  .object({
    id: ApiKeyIdSchema,
    apiKey: apiKeySecret,
    prefix: keyPrefix,
    createdAt: TimestampSchema,
  })
  .openapi('CreatedApiKey');
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;
