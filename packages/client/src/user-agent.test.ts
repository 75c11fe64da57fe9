import { afterEach, describe, expect, it, vi } from 'vitest';
import { userAgent } from './user-agent.js';

describe('userAgent', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('names the package version and the Node version', () => {
    expect(userAgent()).toBe(
      `petstore-client/1.0.0 node/${process.versions.node}`,
    );
  });

  it('is none where there is no process, as in a browser', () => {
    vi.stubGlobal('process', undefined);
    const agent = userAgent();
    vi.unstubAllGlobals();
    expect(agent).toBeUndefined();
  });
});
