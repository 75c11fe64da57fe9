import { describe, expect, it } from 'vitest';
import { loadStoreConfig } from './config.js';

const token = 'a-store-internal-token-of-32-chars!!';

describe('loadStoreConfig', () => {
  it('applies the defaults around the one required variable', () => {
    expect(loadStoreConfig({ INTERNAL_TOKEN: token })).toEqual({
      http: { host: '127.0.0.1', port: 3002, drainMs: 0 },
      mongo: { uri: 'mongodb://127.0.0.1:27017', database: 'petstore_store' },
      internalToken: token,
      logLevel: 'info',
      metrics: { port: undefined },
      pets: {
        urls: ['http://127.0.0.1:3001'],
        timeoutMs: 2000,
        confirmedForMs: 1000,
      },
      outbox: { maxBackoffMs: 5000, reconcileIntervalMs: 300000 },
      gateway: { urls: ['http://127.0.0.1:8080'] },
      events: { relayIntervalMs: 5000 },
    });
  });

  // The variables every service reads are service-kit's, and tested there.
  it('reads every variable of its own', () => {
    const config = loadStoreConfig({
      INTERNAL_TOKEN: token,
      PETS_URL: 'http://pets-1.internal:3001,http://pets-2.internal:3001',
      STATUS_RECONCILE_MS: '60000',
      PET_CONFIRMED_MS: '0',
      PETS_TIMEOUT_MS: '500',
      OUTBOX_MAX_BACKOFF_MS: '10000',
      GATEWAY_URL:
        'http://gateway-1.internal:8080,http://gateway-2.internal:8080/',
      EVENT_RELAY_INTERVAL_MS: '250',
    });
    expect(config.pets).toEqual({
      urls: ['http://pets-1.internal:3001', 'http://pets-2.internal:3001'],
      timeoutMs: 500,
      confirmedForMs: 0,
    });
    expect(config.outbox).toEqual({
      maxBackoffMs: 10000,
      reconcileIntervalMs: 60000,
    });
    expect(config.gateway).toEqual({
      urls: [
        'http://gateway-1.internal:8080',
        'http://gateway-2.internal:8080',
      ],
    });
    expect(config.events).toEqual({ relayIntervalMs: 250 });
  });

  it('treats an empty variable as unset', () => {
    const config = loadStoreConfig({
      INTERNAL_TOKEN: token,
      PORT: '',
      PETS_URL: '',
    });
    expect(config.http.port).toBe(3002);
    expect(config.pets.urls).toEqual(['http://127.0.0.1:3001']);
  });

  it('fails naming every bad variable, never its value', () => {
    const load = () =>
      loadStoreConfig({
        INTERNAL_TOKEN: 'too-short-secret',
        PORT: 'http',
        PETS_URL: 'not a url',
        OUTBOX_MAX_BACKOFF_MS: '-1',
      });
    expect(load).toThrowError(
      [
        'Invalid configuration:',
        '  PORT: Expected a port number (0–65535)',
        '  INTERNAL_TOKEN: Expected at least 32 characters',
        '  PETS_URL.0: Expected an http:// or https:// URL',
        '  OUTBOX_MAX_BACKOFF_MS: Expected a whole number from 1 to 999999999',
      ].join('\n'),
    );
    expect(load).not.toThrow(/too-short-secret/);
  });

  it('requires INTERNAL_TOKEN', () => {
    expect(() => loadStoreConfig({})).toThrow(/INTERNAL_TOKEN: Required/);
  });
});
