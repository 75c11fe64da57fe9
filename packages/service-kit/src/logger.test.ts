import { describe, expect, it } from 'vitest';
import { captureLogs } from './test-support/captured-logs.js';

describe('createLogger', () => {
  it('writes JSON lines with the logger name', () => {
    const logs = captureLogs();
    logs.logger.info({ petId: 1 }, 'pet created');
    expect(logs.lines()).toEqual([
      expect.objectContaining({
        name: 'test',
        level: 30,
        petId: 1,
        msg: 'pet created',
      }),
    ]);
  });

  it('redacts apiKey and token fields wherever they sit', () => {
    const logs = captureLogs();
    logs.logger.info(
      {
        apiKey: 'psk_top',
        account: { apiKey: 'psk_nested', token: 'tok_nested' },
        response: { body: { key: { token: 'tok_deep' } } },
      },
      'account created',
    );
    const text = logs.text();
    expect(text).not.toMatch(/psk_|tok_/);
    expect(logs.lines()[0]).toMatchObject({
      apiKey: '[redacted]',
      account: { apiKey: '[redacted]', token: '[redacted]' },
    });
  });

  it('writes an error that carries a Buffer (an HTTP parse error’s raw packet) without throwing', () => {
    const logs = captureLogs();
    const parseError = Object.assign(
      new Error('Parse Error: Invalid character in chunk size'),
      {
        code: 'HPE_INVALID_CHUNK_SIZE',
        rawPacket: Buffer.from('zz\r\n{}\r\n'),
        details: { packet: new Uint8Array(3), token: 'tok_secret' },
      },
    );
    logs.logger.error({ err: parseError }, 'request failed');
    const [line] = logs.lines();
    expect(line).toMatchObject({
      msg: 'request failed',
      err: {
        type: 'Error',
        message: 'Parse Error: Invalid character in chunk size',
        code: 'HPE_INVALID_CHUNK_SIZE',
      },
    });
    expect(logs.text()).not.toMatch(/tok_secret|rawPacket|zz/);
  });

  it('keeps the message and causes of an error whose object graph has cycles', () => {
    const logs = captureLogs();
    const pool: Record<string, unknown> = {};
    pool.self = pool;
    const cause = Object.assign(
      new Error('connect ECONNREFUSED 127.0.0.1:27017'),
      {
        code: 'ECONNREFUSED',
        syscall: 'connect',
        pool,
      },
    );
    const error = Object.assign(new Error('Server selection timed out'), {
      pool,
      cause,
    });
    logs.logger.error({ err: error }, 'database unavailable');
    expect(logs.lines()[0]).toMatchObject({
      err: {
        type: 'Error',
        message: 'Server selection timed out',
        cause: {
          message: 'connect ECONNREFUSED 127.0.0.1:27017',
          code: 'ECONNREFUSED',
        },
      },
    });
    expect(logs.text()).not.toContain('unable to serialize');
  });
});
