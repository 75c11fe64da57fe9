import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startHangingReceiver } from './hanging-receiver.js';

describe('startHangingReceiver', () => {
  it('takes a delivery, never answers it, and cuts it when stopped', async () => {
    const receiver = await startHangingReceiver();
    const sentAt = Date.now();
    let answered = false;
    const outcome = new Promise<Error>((resolve) => {
      const req = request(receiver.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      });
      req.on('response', () => (answered = true));
      req.on('error', resolve);
      req.end('{"type":"order.created"}');
    });

    await expect.poll(() => receiver.requests()).toBe(1);
    expect(receiver.connections()).toBe(1);
    expect(receiver.hangingBetween(sentAt, Date.now())).toBe(1);
    expect(receiver.hangingBetween(sentAt - 60_000, sentAt - 1)).toBe(0);

    await receiver.stop();
    expect((await outcome).message).toBe('socket hang up');
    expect(answered).toBe(false);
    // Closed now: hanging no longer.
    expect(receiver.hangingBetween(Date.now() + 1, Date.now() + 60_000)).toBe(0);
  });
});
