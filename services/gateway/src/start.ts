import {
  createIdempotency,
  databaseGauge,
  IdempotencyRepository,
  inTransaction,
  startService,
  type Logger,
  type Session,
  type StartedService,
  type StartOptions,
} from '@petstore/service-kit';
import type { Db, MongoClient } from 'mongodb';
import { Accounts } from './accounts/accounts.js';
import { createApp } from './app.js';
import {
  Authenticator,
  createKeyCache,
  KeyUsage,
} from './auth/authentication.js';

import type { Config } from './config.js';
import { ensureIndexes } from './database/indexes.js';
import { MessageRepository } from './messages/message-repository.js';
import { logDelivery, messageWorker } from './messages/message-worker.js';
import { closeUpstreams, createUpstreams } from './proxy/upstreams.js';
import { rateLimits } from './rate-limits/rate-limits.js';
import { DeliveryRepository } from './webhooks/delivery-repository.js';
import { deliveryWorker } from './webhooks/delivery-worker.js';
import { EventRecorder } from './webhooks/event-recorder.js';
import { WebhookRepository } from './webhooks/webhook-repository.js';
import { createWebhooks } from './webhooks/webhooks.js';
import { sealSecret, unsealSecret } from './webhooks/webhook-secret.js';

/** Everything the gateway is made of, on its database: the app's parts and its background work. */
export function buildGateway(
  client: MongoClient,
  db: Db,
  config: Config,
  logger: Logger,
) {
  const accounts = new Accounts(db);
  const { cacheTtlMs: ttlMs, cacheSize: maxEntries } = config.keys;
  const keyUsage = new KeyUsage((uses) => accounts.recordKeyUses(uses), logger);
  const messages = new MessageRepository(db);
  const deliveries = new DeliveryRepository(db, config.webhooks.retentionMs);
  const webhookDeliveries = deliveryWorker(deliveries, config.webhooks, logger);
  const recorder = new EventRecorder(db, (webhookIds) => {
    webhookDeliveries.wake(webhookIds);
  });
  const deliver = logDelivery(logger);
  const transaction = <T>(work: (session: Session) => Promise<T>) =>
    inTransaction(client, work);
  // Created keys and webhook secrets are shown again to a retry: records keep them sealed.
  const { secretsKey } = config.webhooks;
  const idempotency = createIdempotency(
    new IdempotencyRepository(db),
    transaction,
    {
      seal: (text) => sealSecret(text, secretsKey),
      open: (sealed) => unsealSecret(sealed, secretsKey),
    },
  );
  const messageDeliveries = messageWorker({
    messages,
    recorder,
    transaction,
    deliver,
    logger,
    ...config.messages,
  });
  const deps = {
    db,
    config,
    logger,
    accounts,
    messages,
    deliveries,
    idempotency,
    recorder,
    webhooks: createWebhooks({
      webhooks: new WebhookRepository(db),
      deliveries,
      policy: config.webhooks,
    }),
    authenticator: new Authenticator(
      accounts,
      createKeyCache({ ttlMs, maxEntries }),
      keyUsage,
    ),
    rateLimits: rateLimits(db, config.rateLimit),
    upstreams: createUpstreams(config.services, config.upstream.timeoutMs),
    onMessageQueued: (id: string) => {
      messageDeliveries.queued(id);
    },
    onWebhookDeliveryDue: () => {
      webhookDeliveries.kick();
    },
  };
  // Stopped last first: the messages, then the webhooks.
  return { deps, keyUsage, workers: [webhookDeliveries, messageDeliveries] };
}

/** Connects to Mongo, ensures indexes and the admin account, then serves with its workers. */
export function startGateway(
  config: Config,
  {
    validateResponses,
    ...options
  }: StartOptions & { validateResponses?: boolean } = {},
): Promise<StartedService> {
  return startService({
    name: 'gateway',
    config,
    ...options,
    setUp: async ({ database: { client, db }, logger, onShutdown }) => {
      await ensureIndexes(db);
      const admin = await new Accounts(db).ensureAdmin(config.adminApiKey);
      if (admin === 'none')
        logger.warn('ADMIN_API_KEY is not set: no key has the admin role');
      if (admin === 'revoked') {
        logger.warn(
          'the ADMIN_API_KEY given was revoked through the API and stays revoked: set a new one',
        );
      }
      const { deps, keyUsage, workers } = buildGateway(
        client,
        db,
        config,
        logger,
      );
      onShutdown(() => closeUpstreams(deps.upstreams));
      onShutdown(() => keyUsage.stop());
      for (const worker of workers) onShutdown(() => worker.stop());
      databaseGauge(
        'petstore_message_queue_depth',
        'Messages waiting for delivery.',
        () => deps.messages.countWaiting(),
      );
      databaseGauge(
        'petstore_webhook_backlog',
        'Webhook deliveries not yet made (pending), by webhook.',
        () => deps.deliveries.backlog(),
        { label: 'webhook_id' },
      );
      return {
        app: createApp({ ...deps, validateResponses }),
        onListening: () => {
          keyUsage.start(config.keys.usageFlushMs);
          for (const worker of workers) worker.start();
        },
      };
    },
  });
}
