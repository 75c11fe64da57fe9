import {
  EMAIL_DESCRIPTION,
  EmailAddressInputSchema,
  EmailAddressSchema,
} from './email-address.js';
import { AccountIdSchema, ApiKeyIdSchema } from './ids.js';
import { trimmedText } from './text.js';
import { TimestampSchema } from './timestamps.js';
import { z } from './zod.js';
import { initContract } from '@ts-rest/core';
import { errors, EVERY_V1_ERROR, POST_ERRORS, v1Errors } from './errors.js';
import { at, post, type RouteMetadata } from './contract-operations.js';
import { PageQuerySchema } from './pagination.js';
import { requestBody } from './request-body.js';

const EMAIL_EXAMPLE = 'jane@example.com';

export const RoleSchema = z.enum(['customer', 'admin']).openapi('Role', {
  description:
    'Accounts created through the API are customers; the admin key is configured.',
  example: 'customer',
});
export type Role = z.infer<typeof RoleSchema>;

export const NewAccountSchema = z
  .object({
    email: EmailAddressInputSchema.openapi({
      format: 'email',
      description: `${EMAIL_DESCRIPTION} Its length counts as sent; then surrounding spaces are trimmed and the address is stored lower-cased; one account each.`,
      example: EMAIL_EXAMPLE,
    }),
    name: trimmedText({ min: 1, max: 100 }).optional().openapi({
      description:
        '1–100 characters (Unicode code points) as sent, then trimmed; not blank.',
      example: 'Jane Doe',
    }),
  })
  .strict()
  .openapi('NewAccount');
export type NewAccount = z.infer<typeof NewAccountSchema>;

const accountFields = {
  id: AccountIdSchema,
  email: EmailAddressSchema.openapi({
    format: 'email',
    example: EMAIL_EXAMPLE,
  }),
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
    example: 'psk_8Zq3VtK1mW7xR2cN5bH9jL4pD6fS0aYe',
  });

export const AccountSchema = z.object(accountFields).openapi('Account');
export type Account = z.infer<typeof AccountSchema>;

export const CreatedAccountSchema = z
  .object({ ...accountFields, apiKey: apiKeySecret })
  .openapi('CreatedAccount', {
    description: 'The new account and its first API key.',
  });
export type CreatedAccount = z.infer<typeof CreatedAccountSchema>;

export const ApiKeySchema = z
  .object({
    id: ApiKeyIdSchema,
    prefix: z.string().openapi({
      description: 'The first characters of the key, to recognise it by.',
      example: 'psk_8Zq3Vt',
    }),
    createdAt: TimestampSchema,
    lastUsedAt: TimestampSchema.nullable().openapi({
      description: 'Null until the key is first used.',
      example: '2026-01-16T08:00:00Z',
    }),
  })
  .openapi('ApiKey', {
    description: 'A key of the account, never the key itself.',
  });
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const CreatedApiKeySchema = z
  .object({
    ...ApiKeySchema.omit({ lastUsedAt: true }).shape,
    apiKey: apiKeySecret,
  })
  .openapi('CreatedApiKey');
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;

const c = initContract();

const account = { service: 'gateway', auth: 'key' } satisfies RouteMetadata;
// Experimental: keys will gain scopes and an expiry, so their shape may still change.
const keyManagement = {
  ...account,
  stability: 'experimental',
} satisfies RouteMetadata;

export const accounts = c.router({
  createAccount: {
    ...post('/accounts', { service: 'gateway', auth: 'none' }),
    body: requestBody(NewAccountSchema),
    summary: 'Create an account',
    description:
      'Signs up a customer and returns its first API key, shown this once. An email already used is 409 `conflict`. Needs no key; rate limited per client address. Its `Idempotency-Key` is kept per client address, and a retry answers the first key again.',
    responses: {
      201: CreatedAccountSchema,
      ...errors(...EVERY_V1_ERROR, 'conflict', ...POST_ERRORS),
    },
  },
  getMe: {
    ...at('GET /accounts/me', account),
    summary: 'Get the current account',
    description: 'The account the API key belongs to.',
    responses: {
      200: AccountSchema,
      ...v1Errors(),
    },
  },
  createKey: {
    ...post('/accounts/me/keys', keyManagement),
    body: c.noBody(),
    summary: 'Create an API key',
    description:
      'A new key for the current account, shown this once; the other keys keep working. An account has at most 10 keys not revoked: one more is 409 `conflict`.',
    responses: {
      201: CreatedApiKeySchema,
      ...v1Errors('conflict', ...POST_ERRORS),
    },
  },
  listKeys: {
    ...at('GET /accounts/me/keys', keyManagement),
    query: PageQuerySchema,
    summary: 'List API keys',
    description:
      'The current account’s live keys, oldest first, never the key itself.',
    responses: {
      200: z.array(ApiKeySchema),
      ...v1Errors(),
    },
  },
  revokeKey: {
    ...at('DELETE /accounts/me/keys/:keyId', keyManagement),
    pathParams: z.object({
      keyId: ApiKeyIdSchema.openapi({ description: 'The key’s id.' }),
    }),
    summary: 'Revoke an API key',
    description:
      'The key gets 401 from then on, even when it is the one making this call.',
    responses: {
      204: c.noBody(),
      ...v1Errors('not_found'),
    },
  },
});
