import { describe, expect, test } from 'vitest';
import { fileFixture } from './file-fixture.js';

let started = 0;
let disposed = 0;

const it = test.extend<{ resource: { id: number } & AsyncDisposable }>({
  resource: fileFixture(() => {
    started += 1;
    return Promise.resolve({
      id: started,
      [Symbol.asyncDispose]: () => {
        disposed += 1;
        return Promise.resolve();
      },
    });
  }),
});

describe('fileFixture', () => {
  it('starts the resource for the first test that takes it', ({ resource }) => {
    expect(resource.id).toBe(1);
  });

  it('gives every later test of the file the same one, not yet disposed', ({
    resource,
  }) => {
    expect(resource.id).toBe(1);
    expect(started).toBe(1);
    expect(disposed).toBe(0);
  });
});
