import { describe, expect, it } from 'vitest';
import type { CpuProfile } from './profile-summary.js';
import { stageMicros, stageShares } from './stage-costs.js';

const dist = 'file:///repo/node_modules/.pnpm';
const frame = (functionName: string, url = '') => ({
  functionName,
  url,
  lineNumber: 0,
  columnNumber: 0,
});

// (root) → koa respond → node:_http_outgoing end → writev (a response sent)
//        → mongodb writeCommand → node:net write → writeBuffer (the driver's own socket)
//        → zod _parse (validation), (idle), (garbage collector)
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 5, 8, 9, 10] },
    {
      id: 2,
      callFrame: frame('respond', `${dist}/koa@3/node_modules/koa/lib/application.js`),
      children: [3],
    },
    { id: 3, callFrame: frame('end', 'node:_http_outgoing'), children: [4] },
    { id: 4, callFrame: frame('writev') },
    {
      id: 5,
      callFrame: frame(
        'writeCommand',
        `${dist}/mongodb@6/node_modules/mongodb/lib/cmap/connection.js`,
      ),
      children: [6],
    },
    { id: 6, callFrame: frame('Socket._write', 'node:net'), children: [7] },
    { id: 7, callFrame: frame('writeBuffer') },
    { id: 8, callFrame: frame('_parse', `${dist}/zod@3/node_modules/zod/v3/types.js`) },
    { id: 9, callFrame: frame('(idle)') },
    { id: 10, callFrame: frame('(garbage collector)') },
  ],
  startTime: 0,
  endTime: 10_000,
  // Each sample lasts until the next one: 4 → 4 ms, 7 → 3 ms, 8 → 2 ms, 9 → 5 ms (idle), 10 → 1 ms.
  samples: [4, 7, 8, 9, 10, 10],
  timeDeltas: [0, 4000, 3000, 2000, 5000, 1000, 0],
};

describe('stageShares', () => {
  const shares = stageShares(profile);

  it('gives each sample to the innermost stage, out of the busy time', () => {
    expect(shares['node:http and sockets']).toBeCloseTo(40);
    expect(shares['database driver']).toBeCloseTo(30);
    expect(shares.validation).toBeCloseTo(20);
    expect(shares['garbage collector']).toBeCloseTo(10);
    expect(shares['framework (koa)']).toBe(0);
  });

  it('scales the shares to the CPU a request cost', () => {
    expect(stageMicros(shares, 200)).toMatchObject({
      'node:http and sockets': 80,
      'database driver': 60,
      validation: 40,
      other: 0,
    });
  });
});

describe('the routing stage', () => {
  it("is @koa/router's, path-to-regexp's and the contract router's time", () => {
    const router = `${dist}/@koa+router@15.7.0_koa@3.3.0/node_modules/@koa/router/dist/index.mjs`;
    const regexp = `${dist}/path-to-regexp@8.4.2/node_modules/path-to-regexp/dist/index.js`;
    const routing: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 3, 4] },
        { id: 2, callFrame: frame('match', router) },
        { id: 3, callFrame: frame('pathToRegexp', regexp) },
        {
          id: 4,
          callFrame: frame(
            'answerOtherMethods',
            'file:///repo/packages/ts-rest-koa/dist/contract-router.js',
          ),
        },
      ],
      startTime: 0,
      endTime: 3_000,
      samples: [2, 3, 4],
      timeDeltas: [0, 1000, 1000, 1000],
    };
    expect(stageShares(routing).routing).toBeCloseTo(100);
  });
});
