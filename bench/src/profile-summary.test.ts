import { describe, expect, it } from 'vitest';
import { ownerOf, shortLocation, summariseProfile, type CpuProfile } from './profile-summary.js';

const frame = (functionName: string, url = '', lineNumber = 0) => ({
  functionName,
  url,
  lineNumber,
  columnNumber: 0,
});

// (root) → handle → hash, and (root) → handle → handle (recursion) → hash; plus idle time.
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 5, 6] },
    {
      id: 2,
      callFrame: frame('handle', 'file:///repo/services/gateway/dist/edge.js', 11),
      children: [3, 4],
    },
    {
      id: 3,
      callFrame: frame('hash', 'file:///repo/node_modules/.pnpm/x@1/node_modules/@scope/x/a.js', 4),
    },
    {
      id: 4,
      callFrame: frame('handle', 'file:///repo/services/gateway/dist/edge.js', 11),
      children: [7],
    },
    { id: 5, callFrame: frame('(idle)') },
    { id: 6, callFrame: frame('(garbage collector)') },
    {
      id: 7,
      callFrame: frame('hash', 'file:///repo/node_modules/.pnpm/x@1/node_modules/@scope/x/a.js', 4),
    },
  ],
  startTime: 0,
  endTime: 10_000,
  // Each sample lasts until the next one: 3 → 1 ms, 2 → 2 ms, 5 → 4 ms, 7 → 1 ms, 6 → 2 ms.
  samples: [3, 2, 5, 7, 6, 6],
  timeDeltas: [0, 1000, 2000, 4000, 1000, 1000, 1000],
};

describe('summariseProfile', () => {
  const summary = summariseProfile(profile);
  const byName = new Map(summary.functions.map((f) => [f.name, f]));

  it('sums self time per function, busiest first, without idle time', () => {
    expect(summary.functions.map((f) => [f.name, f.selfMs])).toEqual([
      ['handle (services/gateway/dist/edge.js:12)', 2],
      ['hash (@scope/x/a.js:5)', 2],
      ['(garbage collector)', 2],
    ]);
    expect(summary.busyMs).toBe(6);
    expect(byName.get('hash (@scope/x/a.js:5)')?.selfPercent).toBeCloseTo(33.3, 1);
  });

  it('counts a recursive function’s total time once', () => {
    expect(byName.get('handle (services/gateway/dist/edge.js:12)')?.totalMs).toBe(4);
    expect(byName.get('hash (@scope/x/a.js:5)')?.totalMs).toBe(2);
  });

  it('sums self time per owner', () => {
    expect(summary.owners).toEqual([
      { owner: 'services/gateway', selfMs: 2, selfPercent: 33.3 },
      { owner: '@scope/x', selfMs: 2, selfPercent: 33.3 },
      { owner: '(garbage collector)', selfMs: 2, selfPercent: 33.3 },
    ]);
  });
});

describe('ownerOf', () => {
  it('names dependencies, workspace packages, Node modules and V8', () => {
    expect(ownerOf('file:///w/node_modules/.pnpm/koa@3/node_modules/koa/lib/a.js', 'f')).toBe(
      'koa',
    );
    expect(ownerOf('file:///w/packages/service-kit/dist/request-id.js', 'f')).toBe(
      'packages/service-kit',
    );
    expect(ownerOf('node:internal/streams/readable', 'f')).toBe('node:streams');
    expect(ownerOf('node:_http_server', 'f')).toBe('node:_http_server');
    expect(ownerOf('', '(garbage collector)')).toBe('(garbage collector)');
    expect(ownerOf('', 'writev')).toBe('(native)');
  });

  it('shortens locations to the package', () => {
    expect(
      shortLocation('file:///w/node_modules/.pnpm/undici@7/node_modules/undici/index.js'),
    ).toBe('undici/index.js');
    expect(shortLocation('file:///work/main/services/gateway/dist/proxy.js')).toBe(
      'services/gateway/dist/proxy.js',
    );
  });
});
