import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { loadConfig, loadOrExit } from './config.js';
import { envHost, envLogLevel, envMongoUri, envPort } from './config.js';

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
    const config = loadConfig(schema, {
      MONGODB_URI: 'mongodb://127.0.0.1:27017/pets',
    });
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
    expect(() =>
      loadConfig(schema, { MONGODB_URI: 'postgres://user:hunter2@db' }),
    ).toThrowError(
      /^Invalid configuration:\n {2}MONGODB_URI: Expected a mongodb:\/\/ or mongodb\+srv:\/\/ URI$/,
    );
  });

  it('reads process.env when no environment is given', () => {
    const config = loadConfig(z.object({ PATH: z.string() }));
    expect(config.PATH).toBe(process.env.PATH);
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
    const write = vi
      .spyOn(process.stderr, 'write')
      .mockImplementation(() => true);
    try {
      expect(() =>
        loadOrExit(() => {
          throw new Error(
            'Invalid configuration:\n  PORT: Expected a port number (0–65535)',
          );
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
