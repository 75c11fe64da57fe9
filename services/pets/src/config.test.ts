import { describe, expect, it } from 'vitest';
import { loadPetsConfig } from './config.js';

const token = 'a'.repeat(32);

describe('loadPetsConfig', () => {
  it('applies the defaults of every optional variable', () => {
    expect(loadPetsConfig({ INTERNAL_TOKEN: token })).toMatchObject({
      http: { port: 3001 },
      mongo: { database: 'petstore_pets' },
      getPetDeprecation: {
        deprecatedAt: new Date('2026-01-01T00:00:00Z'),
        sunsetAt: new Date('2027-06-30T00:00:00Z'),
      },
      gateway: { urls: ['http://127.0.0.1:8080'] },
      events: { relayIntervalMs: 5000 },
    });
  });

  it('reads where its events go, and how often the relay looks', () => {
    const config = loadPetsConfig({
      INTERNAL_TOKEN: token,
      GATEWAY_URL: 'http://gateway-1:8080, http://gateway-2:8080/',
      EVENT_RELAY_INTERVAL_MS: '250',
    });
    expect(config.gateway).toEqual({
      urls: ['http://gateway-1:8080', 'http://gateway-2:8080'],
    });
    expect(config.events).toEqual({ relayIntervalMs: 250 });
  });

  // The variables every service reads are service-kit's, and tested there.
  it('reads the dates of the deprecated operation', () => {
    const config = loadPetsConfig({
      INTERNAL_TOKEN: token,
      GET_PET_DEPRECATED_AT: '2025-06-01T12:00:00+02:00',
      GET_PET_SUNSET: '2030-01-01T00:00:00Z',
    });
    expect(config.getPetDeprecation).toEqual({
      deprecatedAt: new Date('2025-06-01T10:00:00Z'),
      sunsetAt: new Date('2030-01-01T00:00:00Z'),
    });
  });

  it('treats an empty variable as unset', () => {
    const config = loadPetsConfig({
      INTERNAL_TOKEN: token,
      MONGODB_DB: '',
      GET_PET_SUNSET: '',
    });
    expect(config.mongo.database).toBe('petstore_pets');
    expect(config.getPetDeprecation.sunsetAt).toEqual(
      new Date('2027-06-30T00:00:00Z'),
    );
  });

  it('names every missing or invalid variable, never its value', () => {
    expect(() =>
      loadPetsConfig({
        PORT: '70000',
        MONGODB_DB: 'bad name',
        GET_PET_SUNSET: 'next summer',
        MONGODB_URI: 'postgres://x',
      }),
    ).toThrow(
      /PORT: .*\n.*MONGODB_URI: .*\n.*MONGODB_DB: .*\n.*INTERNAL_TOKEN: Required\n.*GET_PET_SUNSET: Expected an ISO 8601/,
    );
  });

  it('refuses an internal token shorter than 32 characters without showing it', () => {
    expect(() => loadPetsConfig({ INTERNAL_TOKEN: 'short-secret' })).toThrow(
      'INTERNAL_TOKEN: Expected at least 32 characters',
    );
    expect(() =>
      loadPetsConfig({ INTERNAL_TOKEN: 'short-secret' }),
    ).not.toThrow(/short-secret/);
  });
});
