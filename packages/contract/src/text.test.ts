import { describe, expect, it } from 'vitest';
import { codePointLength, lengthInCodePoints, NOT_BLANK_PATTERN } from './text.js';
import { z } from './zod.js';

describe('lengthInCodePoints', () => {
  const name = lengthInCodePoints(z.string().trim(), { min: 1, max: 3 });

  it('counts an emoji (two UTF-16 units) once', () => {
    expect(codePointLength('🐶🐶🐶')).toBe(3);
    expect(name.parse('🐶🐶🐶')).toBe('🐶🐶🐶');
    expect(name.safeParse('🐶🐶🐶🐶').error?.issues[0]?.message).toBe(
      'String must contain at most 3 character(s)',
    );
  });

  it('counts after trimming', () => {
    expect(name.parse('  abc  ')).toBe('abc');
    expect(name.safeParse('   ').error?.issues[0]?.message).toBe(
      'String must contain at least 1 character(s)',
    );
  });
});

describe('NOT_BLANK_PATTERN', () => {
  it('matches exactly the texts that are not empty once trimmed', () => {
    const samples = [
      '',
      ' ',
      '\t',
      '\n\r\v\f',
      '\u00a0\u3000\ufeff\u2028',
      'Rex',
      ' Rex ',
      '\u001c',
      '\u180e',
      '🐕',
    ];
    const pattern = new RegExp(NOT_BLANK_PATTERN, 'u');
    for (const text of samples) {
      expect(pattern.test(text), JSON.stringify(text)).toBe(text.trim().length > 0);
    }
  });
});
