import { inject } from 'vitest';

/** Where the suite runs: the `node` project or the `chromium` one (vitest.config.ts). */
export const runtime = inject('runtime');
