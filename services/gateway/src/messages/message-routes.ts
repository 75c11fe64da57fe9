import type { contract } from '@petstore/contract';
import { AppError, requireCaller } from '@petstore/service-kit';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import type { MessageRepository } from './message-repository.js';

export interface MessageRoutesDeps {
  messages: MessageRepository;
  /** Called once a message is queued, to have the worker deliver it. */
  onMessageQueued: (id: string) => void;
}

export function messageRoutes({
  messages,
  onMessageQueued,
}: MessageRoutesDeps): RouterImplementation<typeof contract.messages> {
  return {
    sendMessage: async ({ body, ctx }) => {
      const message = await messages.queue(requireCaller(ctx).accountId, body.message);
      onMessageQueued(message.id);
      return { status: 202, body: message };
    },
    getMessage: async ({ params, ctx }) => {
      const message = await messages.getVisibleTo(requireCaller(ctx), params.messageId);
      if (!message) throw new AppError('not_found', 'no such message');
      return { status: 200, body: message };
    },
  };
}
