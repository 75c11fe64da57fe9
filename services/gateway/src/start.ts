import {
  databaseGauge,
  startService,
  type StartedService,
  type StartOptions,
} from '@petstore/service-kit';
import { Accounts } from './accounts/accounts.js';
import { buildGateway, createApp } from './app.js';
import type { Config } from './config.js';
import { ensureIndexes } from './database/indexes.js';
import { closeUpstreams } from './proxy/upstreams.js';

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
