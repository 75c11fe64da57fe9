import { freePort, serveHttp } from '@petstore/testkit';
import { describe, expect, it } from 'vitest';
import { withFailover } from './failover.js';
import { Replicas } from './replicas.js';

const deadUrl = async () => `http://127.0.0.1:${await freePort()}`;

async function statusOf(url: string): Promise<number> {
  const response = await fetch(url);
  await response.arrayBuffer();
  return response.status;
}

describe('withFailover', () => {
  it('sends to the next replica when one refuses, and avoids that one afterwards', async () => {
    await using up = await serveHttp((_req, res) => res.writeHead(204).end());
    const down = await deadUrl();
    const replicas = new Replicas([down, up.url]);
    const sentTo: string[] = [];
    const send = (url: string) => {
      sentTo.push(url);
      return statusOf(url);
    };
    for (let call = 0; call < 3; call++) {
      expect(
        await withFailover({ replicas, send, mayTryAgain: () => true }),
      ).toBe(204);
    }
    expect(sentTo).toEqual([down, up.url, up.url, up.url]);
  });

  it('sends once when the failure may not be sent again, and throws it', async () => {
    const replicas = new Replicas([await deadUrl(), await deadUrl()]);
    let sends = 0;
    const send = (url: string) => {
      sends += 1;
      return statusOf(url);
    };
    const failure = withFailover({ replicas, send, mayTryAgain: () => false });
    await expect(failure).rejects.toThrow('fetch failed');
    expect(sends).toBe(1);
  });

  it('stops after `attempts`, by default one per replica', async () => {
    const replicas = new Replicas([await deadUrl(), await deadUrl()]);
    let sends = 0;
    const send = (url: string) => {
      sends += 1;
      return statusOf(url);
    };
    await expect(
      withFailover({ replicas, send, mayTryAgain: () => true }),
    ).rejects.toThrow();
    expect(sends).toBe(2);
    await expect(
      withFailover({ replicas, send, mayTryAgain: () => true, attempts: 3 }),
    ).rejects.toThrow();
    expect(sends).toBe(5);
  });
});
