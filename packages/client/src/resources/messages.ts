import type { ApiPromise } from '../api-promise.js';
import { path } from '../path.js';
import type { RequestOptions, RequestSender } from '../request-sender.js';
import type { Message, NewMessage, WithRequestId } from '../types.js';

/** Messages, queued and then delivered by a worker. */
export class Messages {
  constructor(private readonly sender: RequestSender) {}

  /**
   * Send a message
   *
   * Queues it (`status: 'queued'`). Sent with an `Idempotency-Key` (`options.idempotencyKey`,
   * else a generated one), so a retry never queues it twice.
   * @beta
   * @operationId sendMessage
   */
  send(
    body: NewMessage,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<Message>> {
    const spec = { method: 'POST', path: '/v2/messages', body } as const;
    return this.sender.request(spec, options);
  }

  /**
   * Get a message
   *
   * With its delivery status; another account's message is 404.
   * @beta
   * @operationId getMessage
   */
  get(
    id: string,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<Message>> {
    return this.sender.request(
      { method: 'GET', path: path`/v2/messages/${id}` },
      options,
    );
  }
}
