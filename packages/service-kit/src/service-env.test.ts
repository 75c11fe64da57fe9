import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from './config.js';
import { serviceConfig, serviceEnv } from './config.js';

describe('serviceEnv and serviceConfig', () => {
  const schema = z
    .object(serviceEnv({ port: 3001, database: 'petstore_pets' }))
    .transform(serviceConfig);
  const token = 'x'.repeat(32);

  it('nest the variables every service reads, with their defaults', () => {
    expect(loadConfig(schema, { INTERNAL_TOKEN: token })).toEqual({
      http: { host: '127.0.0.1', port: 3001, drainMs: 0 },
      mongo: { uri: 'mongodb://127.0.0.1:27017', database: 'petstore_pets' },
      internalToken: token,
      logLevel: 'info',
      metrics: { port: undefined },
    });
  });

  it('read how long to drain on SIGTERM, and where metrics are scraped', () => {
    const config = loadConfig(schema, {
      INTERNAL_TOKEN: token,
      SHUTDOWN_DRAIN_MS: '5000',
      METRICS_PORT: '9464',
    });
    expect(config.http.drainMs).toBe(5000);
    expect(config.metrics.port).toBe(9464);
  });

  it('read the database they are given', () => {
    const config = loadConfig(schema, {
      INTERNAL_TOKEN: token,
      MONGODB_DB: 'pets_a',
    });
    expect(config.mongo.database).toBe('pets_a');
  });

  it('treat every empty variable as unset', () => {
    const empty = {
      PORT: '',
      HOST: '',
      MONGODB_URI: '',
      MONGODB_DB: '',
      LOG_LEVEL: '',
    };
    expect(loadConfig(schema, { ...empty, INTERNAL_TOKEN: token })).toEqual(
      loadConfig(schema, { INTERNAL_TOKEN: token }),
    );
  });

  it('require INTERNAL_TOKEN of at least 32 characters, and a plain database name', () => {
    expect(() => loadConfig(schema, {})).toThrowError(
      '  INTERNAL_TOKEN: Required',
    );
    expect(() =>
      loadConfig(schema, { INTERNAL_TOKEN: 'short-secret', MONGODB_DB: 'a/b' }),
    ).toThrowError(
      [
        '  MONGODB_DB: Expected a database name (letters, digits, _ and -)',
        '  INTERNAL_TOKEN: Expected at least 32 characters',
      ].join('\n'),
    );
  });
});
