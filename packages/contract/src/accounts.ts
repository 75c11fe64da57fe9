import { initContract } from '@ts-rest/core';
import {
  AccountSchema,
  ApiKeySchema,
  CreatedAccountSchema,
  CreatedApiKeySchema,
  NewAccountSchema,
} from './account-schemas.js';
import { v1Errors } from './error-responses.js';
import { ApiKeyIdSchema } from './ids.js';
import type { RouteMetadata } from './metadata.js';
import { requestBody } from './request-body.js';
import { z } from './zod.js';

const c = initContract();

const account = { service: 'gateway', auth: 'key' } satisfies RouteMetadata;
const keyManagement = { ...account, stability: 'beta' } satisfies RouteMetadata;

export const accounts = c.router({
  createAccount: {
    method: 'POST',
    path: '/v1/accounts',
    body: requestBody(NewAccountSchema),
    summary: 'Create an account',
    description:
      'Signs up a customer and returns its first API key, shown this once. An email already used is 409 `conflict`. Needs no key; rate limited per client address.',
    responses: { 201: CreatedAccountSchema, ...v1Errors(400, 409, 413, 415) },
    metadata: { service: 'gateway', auth: 'none' },
  },
  getMe: {
    method: 'GET',
    path: '/v1/accounts/me',
    summary: 'Get the current account',
    description: 'The account the API key belongs to.',
    responses: { 200: AccountSchema, ...v1Errors(401) },
    metadata: account,
  },
  createKey: {
    method: 'POST',
    path: '/v1/accounts/me/keys',
    body: c.noBody(),
    summary: 'Create an API key',
    description: 'A new key for the current account, shown this once; the other keys keep working.',
    responses: { 201: CreatedApiKeySchema, ...v1Errors(401) },
    metadata: keyManagement,
  },
  listKeys: {
    method: 'GET',
    path: '/v1/accounts/me/keys',
    summary: 'List API keys',
    description: 'Every live key of the current account, oldest first, never the key itself.',
    responses: { 200: z.array(ApiKeySchema), ...v1Errors(401) },
    metadata: keyManagement,
  },
  revokeKey: {
    method: 'DELETE',
    path: '/v1/accounts/me/keys/:keyId',
    pathParams: z.object({ keyId: ApiKeyIdSchema.openapi({ description: 'The key’s id.' }) }),
    summary: 'Revoke an API key',
    description: 'The key gets 401 from then on, even when it is the one making this call.',
    responses: { 204: c.noBody(), ...v1Errors(400, 401, 404) },
    metadata: keyManagement,
  },
});
