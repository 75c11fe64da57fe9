import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from './config.js';
import {
  envHttpUrls,
  envInstant,
  envInteger,
  envOptionalHttpUrl,
} from './config.js';

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

describe('envOptionalHttpUrl', () => {
  const schema = z.object({ URL: envOptionalHttpUrl() });

  it('reads an http(s) URL without its trailing slashes, nothing when unset', () => {
    expect(loadConfig(schema, { URL: 'https://pets.internal/' })).toEqual({
      URL: 'https://pets.internal',
    });
    expect(loadConfig(schema, { URL: '' }).URL).toBeUndefined();
  });

  it.each(['ftp://pets', 'pets'])('refuses %s, saying so once', (value) => {
    expect(() => loadConfig(schema, { URL: value })).toThrowError(
      new Error(
        [
          'Invalid configuration:',
          '  URL: Expected an http:// or https:// URL',
        ].join('\n'),
      ),
    );
  });
});

describe('envHttpUrls', () => {
  const schema = z.object({ URLS: envHttpUrls('http://127.0.0.1:3001') });

  it('reads a comma-separated list of http(s) URLs, its default when unset', () => {
    expect(
      loadConfig(schema, { URLS: 'http://a:1/, https://b:2' }).URLS,
    ).toEqual(['http://a:1', 'https://b:2']);
    expect(loadConfig(schema, { URLS: '' }).URLS).toEqual([
      'http://127.0.0.1:3001',
    ]);
  });

  it.each(['http://a:1,ftp://b', 'http://a:1,,http://b:2'])(
    'refuses %s',
    (value) => {
      expect(() => loadConfig(schema, { URLS: value })).toThrowError(
        'Expected an http:// or https:// URL',
      );
    },
  );
});

describe('envInstant', () => {
  const schema = z.object({ AT: envInstant('2030-01-01T00:00:00Z') });

  it('reads an ISO 8601 date-time with its offset as a Date, its default when unset', () => {
    expect(loadConfig(schema, { AT: '2025-06-01T12:00:00+02:00' }).AT).toEqual(
      new Date('2025-06-01T10:00:00Z'),
    );
    expect(loadConfig(schema, { AT: '' }).AT).toEqual(
      new Date('2030-01-01T00:00:00Z'),
    );
  });

  it('refuses anything else', () => {
    expect(() => loadConfig(schema, { AT: 'next summer' })).toThrowError(
      '  AT: Expected an ISO 8601 date-time, e.g. 2030-01-01T00:00:00Z',
    );
  });
});
