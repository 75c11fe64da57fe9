import { expect, it } from 'vitest';
import { serveHttp } from './serve-http.js';

it('serves a listener on a free port until closed, then refuses connections', async () => {
  const served = await serveHttp((req, res) =>
    res.end(`${req.method} ${req.url}`),
  );
  expect(served.url).toBe(`http://127.0.0.1:${served.port}`);
  expect(await (await fetch(`${served.url}/ping?x=1`)).text()).toBe(
    'GET /ping?x=1',
  );

  await served.close();

  await expect(fetch(served.url)).rejects.toThrow();
});

it('serves again on the same port after a restart', async () => {
  const first = await serveHttp((_req, res) => res.end('first'));
  await first.close();
  await using second = await serveHttp(
    (_req, res) => res.end('second'),
    first.port,
  );
  expect(await (await fetch(second.url)).text()).toBe('second');
});
