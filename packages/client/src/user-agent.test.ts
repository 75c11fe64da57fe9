import { afterEach, describe, expect, it, vi } from 'vitest';
import { userAgent } from './user-agent.js';

describe('userAgent', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is none where there is no process, as in a browser', () => {
    vi.stubGlobal('process', undefined);
    const agent = userAgent();
    vi.unstubAllGlobals();
    expect(agent).toBeUndefined();
  });
});
