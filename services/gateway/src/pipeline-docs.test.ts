import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';

const read = (path: string) => readFile(new URL(path, import.meta.url), 'utf8');

it("names the gateway's middleware in the README in the order app.ts runs them", async () => {
  const readme = await read('../../../README.md');
  const path =
    /POST \/v2\/store\/orders` goes: gateway \(`[^`]+`\) (.*?), then store/.exec(
      readme,
    );
  expect(path, 'the README line of POST /v2/store/orders').not.toBeNull();
  const names = [...(path?.[1] ?? '').matchAll(/`(\w+)`/g)].map(
    ([, name]) => name ?? '',
  );
  expect(names.length).toBeGreaterThan(5);
  const [, app = ''] = (await read('./app.ts')).split(
    'export function createApp',
  );
  const positions = names.map((name) =>
    app.search(new RegExp(`\\b${name}\\b`)),
  );
  expect(
    positions.every((position) => position >= 0),
    names.join(', '),
  ).toBe(true);
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
});
