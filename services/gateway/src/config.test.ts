import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from './config.js';

const required = { INTERNAL_TOKEN: 'x'.repeat(32) };

describe('loadGatewayConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadGatewayConfig(required);
    expect(config).toMatchObject({
      http: { host: '127.0.0.1', port: 8080 },
      mongo: { uri: 'mongodb://127.0.0.1:27017', database: 'petstore_gateway' },
      publicUrl: 'http://127.0.0.1:8080',
      services: {
        pets: ['http://127.0.0.1:3001'],
        store: ['http://127.0.0.1:3002'],
      },
      upstream: { timeoutMs: 5000 },
      adminApiKey: undefined,
      rateLimit: {
        account: { perSecond: 100, burst: 200 },
        address: { burst: 5 },
      },
      trustedProxyHops: 0,
      keys: { cacheTtlMs: 1000 },
    });
    expect(config.rateLimit.address.perSecond).toBeCloseTo(20 / 60);
    expect(config.webhooks).toMatchObject({
      allowPrivateUrls: false,
      retryDelaysMs: [
        5000, 300000, 1800000, 7200000, 18000000, 36000000, 36000000,
      ],
      disableAfterMs: 432000000,
      pollMs: 30000,
      leaseMs: 30000,
      timeoutMs: 10000,
    });
  });

  it('derives the public address from PORT unless PUBLIC_URL is set', () => {
    expect(loadGatewayConfig({ ...required, PORT: '9090' }).publicUrl).toBe(
      'http://127.0.0.1:9090',
    );
    expect(
      loadGatewayConfig({ ...required, PUBLIC_URL: 'https://api.example.com/' })
        .publicUrl,
    ).toBe('https://api.example.com');
  });

  it('accepts fractional rates', () => {
    const config = loadGatewayConfig({
      ...required,
      RATE_LIMIT_PER_SECOND: '0.5',
      SIGNUP_RATE_LIMIT_PER_MINUTE: '6',
    });
    expect(config.rateLimit.account.perSecond).toBe(0.5);
    expect(config.rateLimit.address.perSecond).toBeCloseTo(0.1);
    expect(() =>
      loadGatewayConfig({ ...required, RATE_LIMIT_PER_SECOND: '0' }),
    ).toThrow(/RATE_LIMIT_PER_SECOND/);
  });

  it('treats an empty variable as unset', () => {
    expect(
      loadGatewayConfig({ ...required, PETS_URL: '', MONGODB_URI: '' }),
    ).toMatchObject({
      services: { pets: ['http://127.0.0.1:3001'] },
      mongo: { uri: 'mongodb://127.0.0.1:27017' },
    });
  });

  it('reads the replicas of a service as a comma-separated list of addresses', () => {
    const config = loadGatewayConfig({
      ...required,
      PETS_URL: 'http://10.0.0.1:3001, http://10.0.0.2:3001/',
    });
    expect(config.services.pets).toEqual([
      'http://10.0.0.1:3001',
      'http://10.0.0.2:3001',
    ]);
  });

  it('caches keys for at most a second, so a revocation reaches every gateway within it', () => {
    expect(
      loadGatewayConfig({ ...required, KEY_CACHE_TTL_MS: '250' }).keys
        .cacheTtlMs,
    ).toBe(250);
    expect(() =>
      loadGatewayConfig({ ...required, KEY_CACHE_TTL_MS: '30000' }),
    ).toThrow('KEY_CACHE_TTL_MS: Expected a whole number from 0 to 1000');
  });

  it('reads the webhook variables', () => {
    const key = Buffer.alloc(32, 9).toString('base64');
    const config = loadGatewayConfig({
      ...required,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_SECRETS_KEY: key,
      WEBHOOK_RETRY_DELAYS_MS: '100, 200,300',
      WEBHOOK_TIMEOUT_MS: '500',
    });
    expect(config.webhooks).toMatchObject({
      allowPrivateUrls: true,
      secretsKey: Buffer.from(key, 'base64'),
      retryDelaysMs: [100, 200, 300],
      timeoutMs: 500,
    });
    expect(
      loadGatewayConfig({ ...required, WEBHOOK_ALLOW_PRIVATE_URLS: 'false' })
        .webhooks,
    ).toMatchObject({ allowPrivateUrls: false });
  });

  it('derives the webhook secrets key from INTERNAL_TOKEN when WEBHOOK_SECRETS_KEY is unset', () => {
    const { secretsKey } = loadGatewayConfig(required).webhooks;
    expect(secretsKey).toHaveLength(32);
    expect(loadGatewayConfig(required).webhooks.secretsKey).toEqual(secretsKey);
    const other = loadGatewayConfig({ INTERNAL_TOKEN: 'y'.repeat(32) }).webhooks
      .secretsKey;
    expect(other).not.toEqual(secretsKey);
  });

  it('refuses bad webhook variables, never repeating a key', () => {
    const attempt = () =>
      loadGatewayConfig({
        ...required,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'yes',
        WEBHOOK_SECRETS_KEY: Buffer.alloc(16, 1).toString('base64'),
        WEBHOOK_RETRY_DELAYS_MS: '5000,0',
      });
    expect(attempt).toThrow(
      'WEBHOOK_ALLOW_PRIVATE_URLS: Expected true or false',
    );
    expect(attempt).toThrow(
      /WEBHOOK_SECRETS_KEY: Expected the base64 of 32 bytes/,
    );
    expect(attempt).toThrow(
      /WEBHOOK_RETRY_DELAYS_MS: Expected comma-separated positive/,
    );
    expect(attempt).not.toThrow(Buffer.alloc(16, 1).toString('base64'));
    expect(() =>
      loadGatewayConfig({ ...required, WEBHOOK_RETRY_DELAYS_MS: '5s' }),
    ).toThrow(/WEBHOOK_RETRY_DELAYS_MS/);
  });

  it('names every bad variable, never its value', () => {
    const attempt = () =>
      loadGatewayConfig({
        INTERNAL_TOKEN: 'too-short-secret',
        ADMIN_API_KEY: 'not-a-key-secret',
        RATE_LIMIT_BURST: '0',
        STORE_URL: 'ftp://store',
      });
    expect(attempt).toThrow(/INTERNAL_TOKEN/);
    expect(attempt).toThrow(/ADMIN_API_KEY/);
    expect(attempt).toThrow(/RATE_LIMIT_BURST/);
    expect(attempt).toThrow(/STORE_URL/);
    expect(attempt).not.toThrow(/too-short-secret|not-a-key-secret/);
  });

  it('requires INTERNAL_TOKEN', () => {
    expect(() => loadGatewayConfig({})).toThrow(/INTERNAL_TOKEN/);
  });
});

describe('CORS_ORIGINS', () => {
  it('is empty by default and reads comma-separated origins, normalised', () => {
    expect(loadGatewayConfig(required).corsOrigins).toEqual([]);
    const origins =
      ' https://App.Example.com , http://localhost:3000/,https://x.example:443';
    expect(
      loadGatewayConfig({ ...required, CORS_ORIGINS: origins }).corsOrigins,
    ).toEqual([
      'https://app.example.com',
      'http://localhost:3000',
      'https://x.example',
    ]);
  });

  it.each([
    '*',
    'https://app.example.com/path',
    'app.example.com',
    'ftp://files.example.com',
  ])('refuses %s, naming the variable', (origins) => {
    expect(() =>
      loadGatewayConfig({ ...required, CORS_ORIGINS: origins }),
    ).toThrow(/CORS_ORIGINS: Expected comma-separated origins/);
  });
});
