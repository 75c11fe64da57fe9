import { describe, expect, it } from 'vitest';
import { userAgent } from './user-agent.js';

// Node only: a browser has no Node version to name (user-agent.test.ts covers it).
describe('userAgent on Node', () => {
  it('names the package version and the Node version', () => {
    expect(userAgent()).toBe(
      `petstore-client/1.0.0 node/${process.versions.node}`,
    );
  });
});
