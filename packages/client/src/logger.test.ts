import { describe, expect, it } from 'vitest';
import type { Logger } from './logger.js';
import { errorBody, startServer } from './test-support/test-server.js';
import { testClient } from './test-support/test-client.js';

/** A logger that keeps what it is told. */
function recordingLogger() {
  const lines: { message: string; details: Record<string, unknown> }[] = [];
  const logger: Logger = {
    debug: (message, details) => lines.push({ message, details }),
  };
  return { logger, lines };
}

describe('logger', () => {
  it('is told each attempt, retry and response at debug level, never the API key', async () => {
    await using server = await startServer(
      {
        ...errorBody(503, 'service_unavailable'),
        headers: { 'x-request-id': 'req-a' },
      },
      { status: 200, headers: { 'x-request-id': 'req-b' }, body: [] },
    );
    const { logger, lines } = recordingLogger();
    const { client } = testClient(server.baseUrl, {
      apiKey: 'psk_secret_value',
      logger,
    });

    await client.pets.list({ limit: 5 }).firstPage();

    expect(lines.map((line) => line.message)).toEqual([
      '[petstore-client] GET /v2/pets attempt 1',
      '[petstore-client] GET /v2/pets answered 503',
      '[petstore-client] GET /v2/pets retrying in 500 ms',
      '[petstore-client] GET /v2/pets attempt 2',
      '[petstore-client] GET /v2/pets answered 200',
    ]);
    expect(lines[0]?.details).toMatchObject({
      method: 'GET',
      url: `${server.baseUrl}/v2/pets?limit=5`,
      attempt: 1,
      headers: { authorization: '[redacted]', accept: 'application/json' },
    });
    expect(lines[1]?.details).toMatchObject({
      status: 503,
      attempt: 1,
      requestId: 'req-a',
    });
    expect(lines[2]?.details).toMatchObject({
      retry: 1,
      delayMs: 500,
      reason: 'answered 503',
    });
    expect(lines[4]?.details).toMatchObject({
      status: 200,
      attempt: 2,
      requestId: 'req-b',
    });
    expect(JSON.stringify(lines)).not.toContain('psk_secret_value');
  });

  it('is told of each attempt that got no answer, and why it is retried', async () => {
    await using server = await startServer('hang');
    const { logger, lines } = recordingLogger();
    const { client } = testClient(server.baseUrl, {
      logger,
      timeout: 20,
      maxRetries: 1,
    });

    await expect(client.pets.get(1)).rejects.toThrow('timed out');

    const timedOut = 'GET /v2/pets/1 timed out after 20 ms';
    expect(lines.slice(1)).toEqual([
      {
        message: '[petstore-client] GET /v2/pets/1 got no answer',
        details: { attempt: 1, error: timedOut },
      },
      {
        message: '[petstore-client] GET /v2/pets/1 retrying in 500 ms',
        details: { retry: 1, delayMs: 500, reason: timedOut },
      },
      {
        message: '[petstore-client] GET /v2/pets/1 attempt 2',
        details: expect.objectContaining({ attempt: 2 }) as unknown,
      },
      {
        message: '[petstore-client] GET /v2/pets/1 got no answer',
        details: { attempt: 2, error: timedOut },
      },
    ]);
  });
});
