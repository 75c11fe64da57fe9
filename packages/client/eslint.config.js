import { config } from '@petstore/eslint-config';
import { defineConfig } from 'eslint/config';

export default defineConfig(config, {
  // The package runs in browsers and edge runtimes too: only web APIs, no Node built-ins.
  files: ['src/**/*.ts'],
  ignores: ['src/**/*.test.ts', 'src/test-support/**'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^node:',
            message: 'The SDK uses web APIs only (fetch, Web Crypto).',
          },
        ],
      },
    ],
    'no-restricted-globals': [
      'error',
      {
        name: 'Buffer',
        message: 'Use Uint8Array and TextEncoder: browsers have no Buffer.',
      },
    ],
  },
});
