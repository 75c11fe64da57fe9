import { afterEach, describe, expect, it, vi } from 'vitest';
import { userAgent } from './user-agent.js';

describe('userAgent', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('names the package version and the Node version', () => {
    expect(userAgent()).toBe(`petstore-client/1.0.0 node/${process.versions.node}`);
  });

  it('names only the package where there is no process', () => {
    vi.stubGlobal('process', undefined);
    const agent = userAgent();
    vi.unstubAllGlobals();
    expect(agent).toBe('petstore-client/1.0.0');
  });
});
