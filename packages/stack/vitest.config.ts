import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each test starts a real mongod and the services as processes.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
