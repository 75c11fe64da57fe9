import { afterAll, beforeAll } from 'vitest';
import { startTestStack, type TestStack } from './test-stack.js';

/**
 * The stack a test file runs against: started before the file's first test (before the file's
 * own `beforeAll`s, which may use it) and stopped after its last. Usable from hooks and tests,
 * not while the file is being collected.
 */
export function testStackForFile(
  ...args: Parameters<typeof startTestStack>
): TestStack {
  let started: TestStack | undefined;
  beforeAll(async () => {
    started = await startTestStack(...args);
  });
  afterAll(async () => {
    await started?.[Symbol.asyncDispose]();
  });
  return new Proxy({} as TestStack, {
    get(_target, property) {
      if (!started)
        throw new Error(
          '[tests] the stack is not running: use it from a hook or a test',
        );
      return Reflect.get(started, property) as unknown;
    },
  });
}
