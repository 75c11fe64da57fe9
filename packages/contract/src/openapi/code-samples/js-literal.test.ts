import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { jsKey, jsString } from './code-samples.js';

describe('JavaScript literals', () => {
  it('single-quotes strings and escapes what would end or break them', () => {
    const text = `Rex's "bone"\\\n`;
    expect(jsString(text)).toBe(`'Rex\\'s "bone"\\\\\\n'`);
    expect(runInNewContext(jsString(text))).toBe(text);
  });

  it('leaves identifier keys bare and quotes the others', () => {
    expect(jsKey('Authorization')).toBe('Authorization');
    expect(jsKey('Idempotency-Key')).toBe(`'Idempotency-Key'`);
  });
});
