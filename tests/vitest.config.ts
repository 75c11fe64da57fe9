import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each file runs the whole API (a database and three processes) of its own, which mostly
    // waits: two files at a time, even on two cores.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    include: ['src/**/*.e2e.test.ts', 'src/**/*.test.ts'],
    // What the stack does in the background (deliveries, status pushes, key use) takes a while.
    expect: { poll: { timeout: 10_000, interval: 100 } },
  },
});
