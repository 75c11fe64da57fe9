import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  envHost,
  envHttpUrl,
  envInstant,
  envInteger,
  envLogLevel,
  envMongoUri,
  envOptionalHttpUrl,
  envPort,
  loadConfig,
  loadOrExit,
  serviceConfig,
  serviceEnv,
} from './config.js';

const schema = z
  .object({
    HOST: envHost(),
    PORT: envPort(8081),
    LOG_LEVEL: envLogLevel(),
    MONGODB_URI: envMongoUri(),
    PETS_SUNSET: z.string().datetime().optional(),
  })
  .transform((env) => ({
    http: { host: env.HOST, port: env.PORT },
    logLevel: env.LOG_LEVEL,
    mongo: { uri: env.MONGODB_URI },
  }));

describe('loadConfig', () => {
  it('returns the typed, nested config with defaults applied', () => {
    const config = loadConfig(schema, { MONGODB_URI: 'mongodb://127.0.0.1:27017/pets' });
    expect(config).toEqual({
      http: { host: '127.0.0.1', port: 8081 },
      logLevel: 'info',
      mongo: { uri: 'mongodb://127.0.0.1:27017/pets' },
    });
  });

  it('reads given values and treats an empty variable as unset', () => {
    const config = loadConfig(schema, {
      HOST: '0.0.0.0',
      PORT: '',
      LOG_LEVEL: 'silent',
      MONGODB_URI: 'mongodb+srv://cluster.example.com/pets',
    });
    expect(config.http).toEqual({ host: '0.0.0.0', port: 8081 });
    expect(config.logLevel).toBe('silent');
  });

  it('names every missing or invalid variable in one error', () => {
    const load = () =>
      loadConfig(schema, {
        PORT: 'abc',
        LOG_LEVEL: 'loud',
        PETS_SUNSET: 'someday',
      });
    expect(load).toThrowError(
      [
        'Invalid configuration:',
        '  PORT: Expected a port number (0–65535)',
        "  LOG_LEVEL: Invalid enum value. Expected 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent', received 'loud'",
        '  MONGODB_URI: Required',
        '  PETS_SUNSET: Invalid datetime',
      ].join('\n'),
    );
  });

  it('rejects a port above 65535', () => {
    expect(() =>
      loadConfig(schema, { PORT: '70000', MONGODB_URI: 'mongodb://localhost' }),
    ).toThrowError('  PORT: Expected a port number (0–65535)');
  });

  it('never repeats the value of an invalid variable, which may be a secret', () => {
    expect(() => loadConfig(schema, { MONGODB_URI: 'postgres://user:hunter2@db' })).toThrowError(
      /^Invalid configuration:\n {2}MONGODB_URI: Expected a mongodb:\/\/ or mongodb\+srv:\/\/ URI$/,
    );
  });

  it('reads process.env when no environment is given', () => {
    const config = loadConfig(z.object({ PATH: z.string() }));
    expect(config.PATH).toBe(process.env.PATH);
  });
});

describe('serviceEnv and serviceConfig', () => {
  const schema = z
    .object(serviceEnv({ port: 3001, database: 'petstore_pets' }))
    .transform(serviceConfig);
  const token = 'x'.repeat(32);

  it('nest the variables every service reads, with their defaults', () => {
    expect(loadConfig(schema, { INTERNAL_TOKEN: token })).toEqual({
      http: { host: '127.0.0.1', port: 3001 },
      mongo: { uri: 'mongodb://127.0.0.1:27017', database: 'petstore_pets' },
      internalToken: token,
      logLevel: 'info',
    });
  });

  it('treat every empty variable as unset', () => {
    const empty = { PORT: '', HOST: '', MONGODB_URI: '', MONGODB_DB: '', LOG_LEVEL: '' };
    expect(loadConfig(schema, { ...empty, INTERNAL_TOKEN: token })).toEqual(
      loadConfig(schema, { INTERNAL_TOKEN: token }),
    );
  });

  it('require INTERNAL_TOKEN of at least 32 characters, and a plain database name', () => {
    expect(() => loadConfig(schema, {})).toThrowError('  INTERNAL_TOKEN: Required');
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

describe('envInteger', () => {
  const schema = z.object({ N: envInteger(5, { min: 1, max: 10 }) });

  it('reads a whole number within its bounds, its default when unset', () => {
    expect(loadConfig(schema, { N: '10' }).N).toBe(10);
    expect(loadConfig(schema, { N: '' }).N).toBe(5);
  });

  it.each(['0', '11', '-1', '1.5', 'ten'])('refuses %s', (value) => {
    expect(() => loadConfig(schema, { N: value })).toThrowError(
      '  N: Expected a whole number from 1 to 10',
    );
  });
});

describe('envHttpUrl', () => {
  const schema = z.object({
    URL: envHttpUrl('http://127.0.0.1:3001'),
    PUBLIC: envOptionalHttpUrl(),
  });

  it('reads an http(s) URL without its trailing slashes, its default when unset', () => {
    expect(loadConfig(schema, { URL: 'https://pets.internal/', PUBLIC: '' })).toEqual({
      URL: 'https://pets.internal',
      PUBLIC: undefined,
    });
    expect(loadConfig(schema, {}).URL).toBe('http://127.0.0.1:3001');
  });

  it('refuses another scheme or no URL at all', () => {
    expect(() => loadConfig(schema, { URL: 'ftp://pets', PUBLIC: 'pets' })).toThrowError(
      [
        '  URL: Expected an http:// or https:// URL',
        '  PUBLIC: Expected an http:// or https:// URL',
      ].join('\n'),
    );
  });
});

describe('envInstant', () => {
  const schema = z.object({ AT: envInstant('2030-01-01T00:00:00Z') });

  it('reads an ISO 8601 date-time with its offset as a Date, its default when unset', () => {
    expect(loadConfig(schema, { AT: '2025-06-01T12:00:00+02:00' }).AT).toEqual(
      new Date('2025-06-01T10:00:00Z'),
    );
    expect(loadConfig(schema, { AT: '' }).AT).toEqual(new Date('2030-01-01T00:00:00Z'));
  });

  it('refuses anything else', () => {
    expect(() => loadConfig(schema, { AT: 'next summer' })).toThrowError(
      '  AT: Expected an ISO 8601 date-time, e.g. 2030-01-01T00:00:00Z',
    );
  });
});

describe('loadOrExit', () => {
  it('returns what the load returns', () => {
    expect(loadOrExit(() => 42)).toBe(42);
  });

  it('writes the message of a failed load to stderr, without a stack, and exits 1', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation(() => {
      throw new Error('exited');
    });
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(() =>
        loadOrExit(() => {
          throw new Error('Invalid configuration:\n  PORT: Expected a port number (0–65535)');
        }),
      ).toThrowError('exited');
      expect(write).toHaveBeenCalledExactlyOnceWith(
        'Invalid configuration:\n  PORT: Expected a port number (0–65535)\n',
      );
      expect(exit).toHaveBeenCalledExactlyOnceWith(1);
    } finally {
      exit.mockRestore();
      write.mockRestore();
    }
  });
});
