import { registry } from '@petstore/service-kit';
import { Counter, Histogram } from 'prom-client';

export const deliveryLag = new Histogram({
  name: 'petstore_webhook_delivery_lag_seconds',
  help: 'From an event to the receiver taking its delivery.',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 3600],
  registers: [registry],
});

export const deliveryAttempts = new Counter({
  name: 'petstore_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts: delivered, retry (failed, to be tried again) or failed (for good).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});
