import { describe, expect, it } from 'vitest';
import { cpuBetween, cpuMicrosPerRequest, parseStat, roleOf } from './process-cpu.js';

describe('parseStat', () => {
  it('reads the parent and the user + system ticks after a name with spaces and parentheses', () => {
    const stat = '4242 (node (x) y) S 17 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 11 0';
    expect(parseStat(4242, stat)).toEqual({ pid: 4242, ppid: 17, cpuMs: 3250 });
  });
});

describe('roleOf', () => {
  it('recognises the services, the database and the bench’s own servers by their command lines', () => {
    expect(roleOf('/usr/bin/node --cpu-prof /w/services/gateway/dist/main.js')).toBe('gateway');
    expect(roleOf('/usr/bin/node /w/services/pets/dist/main.js')).toBe('pets');
    expect(roleOf('/usr/bin/node /w/services/store/dist/main.js')).toBe('store');
    expect(roleOf('/usr/bin/node /w/bench/dist/bare-server.js')).toBe('bare server');
    expect(roleOf('/usr/bin/node /w/bench/dist/reference-find-one.js mongodb://x')).toBe('R1');
    expect(roleOf('/usr/bin/node /w/bench/dist/reference-koa.js mongodb://x')).toBe('R1');
    expect(roleOf('/usr/bin/node /w/bench/dist/reference-proxy.js http://x')).toBe('R2');
    expect(roleOf('/w/.tools/mongod/fiftyone/db/bin/mongod --port 1 --dbpath /d')).toBe('database');
    expect(roleOf('sh -c … /w/.tools/mongod/fiftyone/db/bin/mongod --port 1')).toBeUndefined();
    expect(
      roleOf('/bin/sh -c … guard /usr/bin/node /w/services/pets/dist/main.js'),
    ).toBeUndefined();
    expect(roleOf('/usr/bin/node vitest')).toBeUndefined();
  });
});

describe('cpuBetween', () => {
  it('gives what each role used between two samples', () => {
    const before = new Map([['gateway', 100]]);
    const after = new Map([
      ['gateway', 350],
      ['pets', 40],
    ]);
    expect(cpuBetween(before, after)).toEqual({ gateway: 250, pets: 40 });
  });
});

describe('cpuMicrosPerRequest', () => {
  it('divides what each role used by the requests answered, in µs, and never by zero', () => {
    expect(cpuMicrosPerRequest({ gateway: 250, store: 1 }, 1_000)).toEqual({
      gateway: 250,
      store: 1,
    });
    expect(cpuMicrosPerRequest({ gateway: 3 }, 0)).toEqual({ gateway: 3000 });
  });
});
