import type { TestProject } from 'vitest/node';
import { startControlServer } from './control-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the control server of test-server.ts listens. */
    testServerControl: string;
    /** The project the suite runs in (vitest.config.ts). */
    runtime: 'node' | 'chromium';
  }
}

/** Test servers run in Node beside the suite, so that tests in a browser can have them too. */
export default async function setup(project: TestProject) {
  const control = await startControlServer();
  project.provide('testServerControl', control.url);
  return () => control.close();
}
