import {
  databaseGauge,
  startService,
  type StartedService,
  type StartOptions,
} from '@petstore/service-kit';
import { AccountRepository } from './accounts/account-repository.js';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { ensureIndexes } from './database/indexes.js';
import { KeyUsage } from './auth/key-usage.js';
import { MessageRepository } from './messages/message-repository.js';
import { messageEventRelay } from './messages/message-event-relay.js';
import { logDelivery, messageWorker } from './messages/message-worker.js';
import { closeUpstreams, createUpstreams } from './proxy/upstreams.js';
import { DeliveryWorker } from './webhooks/delivery-worker.js';
import { webhookCollections } from './webhooks/webhook-collections.js';
import { webhookSweeper } from './webhooks/webhook-sweeper.js';
import { EventRecorder } from './webhooks/event-recorder.js';

export interface StartGatewayOptions extends StartOptions {
  /** Check the gateway's own answers against the contract (tests). */
  validateResponses?: boolean;
}

/** Closing stops the workers and flushes key uses before the database closes. */
export type RunningGateway = StartedService;

/**
 * Connects to Mongo, ensures indexes and the admin account, then serves the gateway with its
 * background work: the message worker, the relay of its `message.delivered` events, the webhook
 * delivery worker and the sweep of its history, and the batched `lastUsedAt` writes.
 */
export function startGateway(
  config: Config,
  { validateResponses, ...options }: StartGatewayOptions = {},
): Promise<RunningGateway> {
  return startService({
    name: 'gateway',
    config,
    ...options,
    setUp: async ({ database, logger: log, onShutdown }) => {
      const upstreams = createUpstreams(config);
      onShutdown(() => closeUpstreams(upstreams));
      const { db } = database;
      await ensureIndexes(db);
      const accounts = new AccountRepository(db);
      const admin = await accounts.ensureAdmin(config.adminApiKey);
      if (admin === 'none') log.warn('ADMIN_API_KEY is not set: no key has the admin role');
      if (admin === 'revoked') {
        log.warn(
          'the ADMIN_API_KEY given was revoked through the API and stays revoked: set a new one',
        );
      }
      const keyUsage = new KeyUsage((uses) => accounts.recordKeyUses(uses), log);
      onShutdown(() => keyUsage.stop());
      const messages = new MessageRepository(db);
      databaseGauge('petstore_message_queue_depth', 'Messages waiting for delivery.', () =>
        messages.countWaiting(),
      );
      const deliveries = new DeliveryWorker({ db, logger: log, settings: config.webhooks });
      onShutdown(() => deliveries.stop());
      const sweeper = webhookSweeper(webhookCollections(db), {
        now: () => new Date(),
        logger: log,
        retentionMs: config.webhooks.retentionMs,
      });
      onShutdown(() => sweeper.stop());
      const messageEvents = messageEventRelay({
        messages,
        recorder: new EventRecorder(db, () => deliveries.kick()),
        logger: log,
        pollMs: config.messages.pollMs,
      });
      onShutdown(() => messageEvents.stop());
      const worker = messageWorker({
        messages,
        deliver: logDelivery(log),
        logger: log,
        pollMs: config.messages.pollMs,
        leaseMs: config.messages.leaseMs,
        onDelivered: () => messageEvents.kick(),
      });
      onShutdown(() => worker.stop());
      const app = createApp({
        db,
        config,
        logger: log,
        upstreams,
        keyUsage,
        onMessageQueued: (id) => worker.queued(id),
        onWebhookDeliveryDue: () => deliveries.kick(),
        validateResponses,
      });
      return {
        app,
        onListening: () => {
          keyUsage.start(config.keys.usageFlushMs);
          worker.start();
          messageEvents.start();
          deliveries.start();
          sweeper.start();
        },
      };
    },
  });
}
