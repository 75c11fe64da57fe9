import { request } from 'node:http';
import { serveHttp } from '@petstore/testkit';
import { describe, expect, it } from 'vitest';
import {
  checkWebhookUrl,
  parseWebhookUrl,
  webhookLookup,
} from './url-policy.js';

const strict = { allowPrivate: false };
const lenient = { allowPrivate: true };

function refused(message: RegExp) {
  return {
    name: 'AppError',
    code: 'invalid_webhook_url',
    status: 422,
    message,
  };
}

const privateUrls = [
  'https://127.0.0.1/hook',
  'https://[::1]/hook',
  'https://localhost/hook',
  'https://10.1.2.3/',
  'https://172.16.0.1/',
  'https://172.31.255.254/',
  'https://192.168.1.10/',
  'https://169.254.169.254/latest/meta-data/',
  'https://[fd00:ec2::254]/',
  'https://100.64.0.1/',
  'https://0.0.0.0/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::7f00:1]/',
  'https://[100::1]/',
];

describe('checkWebhookUrl', () => {
  it.each(privateUrls)(
    'refuses %s, which is not a public address',
    async (url) => {
      await expect(checkWebhookUrl(url, strict)).rejects.toMatchObject(
        refused(/not a public address/),
      );
    },
  );

  it('names the host, the address and its range', async () => {
    await expect(checkWebhookUrl('https://localhost/', strict)).rejects.toThrow(
      /^webhook URL host localhost resolves to (127\.0\.0\.1|::1) \(loopback\), not a public address$/,
    );
    await expect(
      checkWebhookUrl('https://169.254.169.254/', strict),
    ).rejects.toThrow(
      'webhook URL address 169.254.169.254 (link local) is not a public address',
    );
  });

  const neverCalled = [
    'https://169.254.169.254/latest/meta-data/',
    'https://[::7f00:1]/',
    'https://[100::1]/',
    'https://[fe80::1]/',
    'https://0.0.0.0/',
    'https://224.0.0.1/',
  ];
  const allowedWhenPrivate = privateUrls.filter(
    (url) => !neverCalled.includes(url),
  );

  it.each(allowedWhenPrivate)(
    'accepts %s when private addresses are allowed',
    async (url) => {
      await expect(checkWebhookUrl(url, lenient)).resolves.toEqual(
        new URL(url),
      );
    },
  );

  it.each(neverCalled)(
    'refuses %s even when private addresses are allowed',
    async (url) => {
      await expect(checkWebhookUrl(url, lenient)).rejects.toMatchObject(
        refused(/not a public address/),
      );
    },
  );

  it('accepts a public address without asking DNS', async () => {
    await expect(
      checkWebhookUrl('https://93.184.216.34/hook?x=1', strict),
    ).resolves.toEqual(new URL('https://93.184.216.34/hook?x=1'));
    await expect(
      checkWebhookUrl('https://[2606:4700::1111]/', strict),
    ).resolves.toBeInstanceOf(URL);
  });

  it('requires https unless private addresses are allowed, then accepts http too', async () => {
    await expect(
      checkWebhookUrl('http://93.184.216.34/', strict),
    ).rejects.toMatchObject(refused(/^webhook URL must use https$/));
    await expect(
      checkWebhookUrl('http://127.0.0.1:8080/', lenient),
    ).resolves.toBeInstanceOf(URL);
  });

  it('refuses other schemes', async () => {
    await expect(
      checkWebhookUrl('ftp://93.184.216.34/', strict),
    ).rejects.toMatchObject(refused(/^webhook URL must use https$/));
    await expect(
      checkWebhookUrl('ftp://127.0.0.1/', lenient),
    ).rejects.toMatchObject(refused(/^webhook URL must use https or http$/));
  });

  it('refuses a username or password without repeating them', async () => {
    const attempt = checkWebhookUrl(
      'https://alice:s3cret@93.184.216.34/',
      lenient,
    );
    await expect(attempt).rejects.toMatchObject(
      refused(/must not contain a username or password/),
    );
    await expect(attempt).rejects.not.toThrow(/alice|s3cret/);
    await expect(
      checkWebhookUrl('https://alice@93.184.216.34/', lenient),
    ).rejects.toMatchObject(refused(/username or password/));
  });

  it('refuses what is not an absolute URL', async () => {
    await expect(
      checkWebhookUrl('/relative/hook', lenient),
    ).rejects.toMatchObject(refused(/not an absolute URL/));
  });

  it('refuses a host that does not resolve, private addresses allowed or not', async () => {
    for (const policy of [strict, lenient]) {
      await expect(
        checkWebhookUrl('https://no-such-host.invalid/', policy),
      ).rejects.toMatchObject(
        refused(/host no-such-host\.invalid (could not be resolved|did not)/),
      );
    }
  });
});

describe('parseWebhookUrl', () => {
  it('checks an address host without DNS, since connecting to one skips the lookup', () => {
    expect(() => parseWebhookUrl('https://10.0.0.1/', strict)).toThrow(
      /not a public address/,
    );
    expect(parseWebhookUrl('https://example.invalid/', strict).hostname).toBe(
      'example.invalid',
    );
  });
});

describe('webhookLookup', () => {
  it('answers as dns.lookup does, one address or all of them', async () => {
    const lookup = webhookLookup(lenient);
    const one = await new Promise<unknown[]>((resolve) => {
      lookup('localhost', { family: 4 }, (...answer) => {
        resolve(answer);
      });
    });
    expect(one).toEqual([null, '127.0.0.1', 4]);
    const all = await new Promise<unknown[]>((resolve) => {
      lookup('localhost', { family: 4, all: true }, (...answer) => {
        resolve(answer);
      });
    });
    expect(all).toEqual([null, [{ address: '127.0.0.1', family: 4 }]]);
  });

  it('refuses the connection to a private address as it is made', async () => {
    await using server = await serveHttp((_req, res) => res.end('ok'));
    const get = (allowPrivate: boolean) =>
      new Promise<number | undefined>((resolve, reject) => {
        request(`http://localhost:${server.port}/`, {
          lookup: webhookLookup({ allowPrivate }),
          family: 4,
          agent: false,
        })
          .on('response', (res) => {
            res.resume();
            resolve(res.statusCode);
          })
          .on('error', reject)
          .end();
      });

    await expect(get(true)).resolves.toBe(200);
    await expect(get(false)).rejects.toMatchObject(
      refused(/host localhost resolves to 127\.0\.0\.1 \(loopback\)/),
    );
  });
});
