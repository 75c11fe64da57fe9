import { MessageIdSchema } from './ids.js';
import { lengthInCodePoints } from './text.js';
import { TimestampSchema } from './timestamps.js';
import { z } from './zod.js';

const messageText = lengthInCodePoints(z.string(), { min: 1, max: 10_000 }).openapi({
  description: '1–10 000 characters (Unicode code points), kept as sent.',
  example: 'Hello from the Petstore!',
});

export const MessageStatusSchema = z.enum(['queued', 'delivered']).openapi('MessageStatus', {
  description: 'queued when accepted; a worker delivers it shortly after.',
  example: 'queued',
});
export type MessageStatus = z.infer<typeof MessageStatusSchema>;

export const NewMessageSchema = z.object({ message: messageText }).openapi('NewMessage');
export type NewMessage = z.infer<typeof NewMessageSchema>;

export const MessageSchema = z
  .object({
    id: MessageIdSchema,
    message: messageText,
    status: MessageStatusSchema,
    createdAt: TimestampSchema,
  })
  .openapi('Message');
export type Message = z.infer<typeof MessageSchema>;
