import { MessageIdSchema } from './ids.js';
import { lengthInCodePoints } from './text.js';
import { TimestampSchema } from './timestamps.js';
import { z } from './zod.js';
import { initContract } from '@ts-rest/core';
import { POST_ERRORS, v1Errors } from './errors.js';
import { at, post, type RouteMetadata } from './contract-operations.js';
import { requestBody } from './request-body.js';

const messageText = lengthInCodePoints(z.string(), {
  min: 1,
  max: 10_000,
}).openapi({
  description: '1–10 000 characters (Unicode code points), kept as sent.',
  example: 'Hello from the Petstore!',
});

export const MessageStatusSchema = z
  .enum(['queued', 'delivered'])
  .openapi('MessageStatus', {
    description: 'queued when accepted; a worker delivers it shortly after.',
    example: 'queued',
  });

export const NewMessageSchema = z
  .object({ message: messageText })
  .strict()
  .openapi('NewMessage');
export type NewMessage = z.infer<typeof NewMessageSchema>;

export const MessageSchema = z
  .object({
    id: MessageIdSchema,
    message: messageText,
    status: MessageStatusSchema,
    createdAt: TimestampSchema,
  })
  .openapi('Message', {
    description: 'A message and how far its delivery has gone.',
  });
export type Message = z.infer<typeof MessageSchema>;

const c = initContract();

const metadata = {
  service: 'gateway',
  auth: 'key',
  stability: 'beta',
} satisfies RouteMetadata;

export const messages = c.router({
  sendMessage: {
    ...post('/messages', metadata),
    body: requestBody(NewMessageSchema),
    summary: 'Send a message',
    description: 'Queues a message (202); a worker delivers it shortly after.',
    responses: {
      202: MessageSchema,
      ...v1Errors('conflict', ...POST_ERRORS),
    },
  },
  getMessage: {
    ...at('GET /messages/:messageId', metadata),
    pathParams: z.object({
      messageId: MessageIdSchema.openapi({ description: 'The message’s id.' }),
    }),
    summary: 'Get a message',
    description:
      'One of the caller’s messages and its delivery status; another account’s is 404.',
    responses: {
      200: MessageSchema,
      ...v1Errors('not_found'),
    },
  },
});
