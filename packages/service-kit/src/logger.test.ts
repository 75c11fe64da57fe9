import { describe, expect, it } from 'vitest';
import { captureLogs } from './test-support/captured-logs.js';

describe('createLogger', () => {
  it('writes JSON lines with the logger name', () => {
    const logs = captureLogs();
    logs.logger.info({ petId: 1 }, 'pet created');
    expect(logs.lines()).toEqual([
      expect.objectContaining({ name: 'test', level: 30, petId: 1, msg: 'pet created' }),
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
    const parseError = Object.assign(new Error('Parse Error: Invalid character in chunk size'), {
      code: 'HPE_INVALID_CHUNK_SIZE',
      rawPacket: Buffer.from('zz\r\n{}\r\n'),
      details: { packet: new Uint8Array(3), token: 'tok_secret' },
    });
    logs.logger.error({ err: parseError }, 'request failed');
    expect(logs.lines()[0]).toMatchObject({
      msg: 'request failed',
      err: {
        message: 'Parse Error: Invalid character in chunk size',
        code: 'HPE_INVALID_CHUNK_SIZE',
        rawPacket: '[binary: 8 bytes]',
        details: { packet: '[binary: 3 bytes]', token: '[redacted]' },
      },
    });
    expect(parseError.rawPacket).toBeInstanceOf(Buffer);
  });
});
