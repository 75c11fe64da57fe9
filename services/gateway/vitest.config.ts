import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Tests start a real MongoDB-compatible server and real HTTP servers.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
