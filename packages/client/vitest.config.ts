import { readFileSync } from 'node:fs';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as {
  version: string;
};

/** Debian's chromium (`CHROMIUM_PATH` names another): nothing downloads a browser. */
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Chromium refuses to start its sandbox as root (CI containers).
const args = process.getuid?.() === 0 ? ['--no-sandbox'] : [];

// The same suite runs twice: on Node, and in Chromium as a page would use the SDK. Node-only
// tests are named `*.node.test.ts`.
export default defineConfig({
  define: { __CLIENT_VERSION__: JSON.stringify(version) },
  test: {
    globalSetup: ['src/test-support/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['src/**/*.test.ts'],
          provide: { runtime: 'node' },
        },
      },
      {
        extends: true,
        test: {
          name: 'chromium',
          include: ['src/**/*.test.ts'],
          exclude: ['src/**/*.node.test.ts'],
          provide: { runtime: 'chromium' },
          browser: {
            enabled: true,
            headless: true,
            // The tests render nothing: a screenshot of a failure shows an empty page.
            screenshotFailures: false,
            provider: playwright({ launchOptions: { executablePath, args } }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
