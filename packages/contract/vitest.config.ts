import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Generating and validating the document of both versions takes seconds, more on a machine
    // busy with every other suite.
    testTimeout: 30_000,
  },
});
