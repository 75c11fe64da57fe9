import { testInternalToken } from '@petstore/testkit';
import { createHash } from 'node:crypto';
import { describe, expect } from 'vitest';
import { startFakeService } from './test-support/fake-service.js';
import {
  ADMIN_API_KEY,
  bearer,
  signUp,
  startTestGateway,
} from './test-support/gateway-harness.js';
import { it } from '@petstore/testkit/vitest';

describe('logs', () => {
  it('never contain an API key, its hash or the internal token, whatever happens', async ({
    mongo,
  }) => {
    await using pets = await startFakeService((_request, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('not json');
    });
    await using gateway = await startTestGateway(mongo, {
      env: { PETS_URL: pets.url, LOG_LEVEL: 'debug' },
    });
    const { apiKey } = await signUp(gateway.url);
    const unknownKey = `psk_${'Z'.repeat(40)}`;

    await fetch(`${gateway.url}/v1/accounts/me`, { headers: bearer(apiKey) });
    await fetch(`${gateway.url}/v1/pets`, { headers: bearer(apiKey) }); // 502
    await fetch(`${gateway.url}/v1/store/orders`, { headers: bearer(apiKey) }); // 503
    await fetch(`${gateway.url}/v1/accounts/me`, {
      headers: bearer(unknownKey),
    }); // 401
    await fetch(`${gateway.url}/v1/accounts/me`, {
      headers: { Authorization: apiKey },
    }); // 401
    await fetch(`${gateway.url}/v1/accounts/me/keys`, {
      method: 'POST',
      headers: bearer(ADMIN_API_KEY),
    });
    await gateway.close();

    const logs = gateway.logs.text();
    expect(logs).toContain('request completed');
    expect(logs).toContain('bad_gateway');
    for (const secret of [
      apiKey,
      unknownKey,
      ADMIN_API_KEY,
      testInternalToken,
    ]) {
      expect(logs).not.toContain(secret);
      expect(logs).not.toContain(secret.slice(4));
      expect(logs).not.toContain(
        createHash('sha256').update(secret).digest('hex'),
      );
    }
  });
});
