import { expect, it } from 'vitest';
import { accounts } from './gateway-identity.js';
import { serveHttp } from './serve-http.js';
import { ServiceUnderTest } from './service-under-test.js';

/** A service answering who the gateway said the caller is. */
const whoAmI = (port: number) =>
  serveHttp((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ accountId: req.headers['x-account-id'] ?? null }));
  }, port);

it('starts again on the port it had, and calls as the account it was given', async () => {
  await using service = await new ServiceUnderTest(whoAmI, {
    as: accounts.admin,
  }).start();
  const { port, url } = service;
  expect(port).toBeGreaterThan(0);
  expect((await service.call('GET', '/')).body).toEqual({
    accountId: 'acct_admin1',
  });

  await service.stop();
  await expect(service.call('GET', '/')).rejects.toThrow();
  await service.start();
  expect(service.url).toBe(url);
  expect((await service.call('GET', '/', { as: accounts.jane })).body).toEqual({
    accountId: 'acct_jane1',
  });
});
