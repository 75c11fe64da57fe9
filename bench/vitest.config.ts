import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Database tests start a real MongoDB-compatible server.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
