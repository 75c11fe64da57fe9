import { initContract } from '@ts-rest/core';
import { v1Errors } from './error-responses.js';
import { MessageIdSchema } from './ids.js';
import { MessageSchema, NewMessageSchema } from './message-schemas.js';
import type { RouteMetadata } from './metadata.js';
import { requestBody } from './request-body.js';
import { z } from './zod.js';

const c = initContract();

const metadata = { service: 'gateway', auth: 'key', stability: 'beta' } satisfies RouteMetadata;

export const messages = c.router({
  sendMessage: {
    method: 'POST',
    path: '/v1/messages',
    body: requestBody(NewMessageSchema),
    summary: 'Send a message',
    description: 'Queues a message (202); a worker delivers it shortly after.',
    responses: { 202: MessageSchema, ...v1Errors(400, 401, 413, 415) },
    metadata,
  },
  getMessage: {
    method: 'GET',
    path: '/v1/messages/:messageId',
    pathParams: z.object({
      messageId: MessageIdSchema.openapi({ description: 'The message’s id.' }),
    }),
    summary: 'Get a message',
    description: 'One of the caller’s messages and its delivery status; another account’s is 404.',
    responses: { 200: MessageSchema, ...v1Errors(400, 401, 404) },
    metadata,
  },
});
