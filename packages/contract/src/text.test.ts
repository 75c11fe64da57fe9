import { describe, expect, it } from 'vitest';
import {
  codePointLength,
  lengthInCodePoints,
  NOT_BLANK_PATTERN,
  trimmedText,
} from './text.js';
import { z } from './zod.js';

describe('lengthInCodePoints', () => {
  const message = lengthInCodePoints(z.string(), { min: 1, max: 3 });

  it('counts an emoji (two UTF-16 units) once', () => {
    expect(codePointLength('🐶🐶🐶')).toBe(3);
    expect(message.parse('🐶🐶🐶')).toBe('🐶🐶🐶');
    expect(message.safeParse('🐶🐶🐶🐶').error?.issues[0]?.message).toBe(
      'String must contain at most 3 character(s)',
    );
  });
});

describe('trimmedText', () => {
  const name = trimmedText({ min: 1, max: 3 });

  it('counts the text as sent, so a padded one over the limit is refused', () => {
    expect(name.parse(' ab')).toBe('ab');
    expect(name.parse('🐶🐶🐶')).toBe('🐶🐶🐶');
    expect(name.safeParse('  abc  ').error?.issues).toEqual([
      expect.objectContaining({
        message: 'String must contain at most 3 character(s)',
      }),
    ]);
  });

  it('refuses a blank text once, as too short', () => {
    for (const blank of ['', '   ', '\u3000']) {
      expect(
        name.safeParse(blank).error?.issues,
        JSON.stringify(blank),
      ).toEqual([
        expect.objectContaining({
          message: 'String must contain at least 1 character(s)',
        }),
      ]);
    }
  });

  it('takes a blank text without a minimum, trimmed to empty', () => {
    expect(trimmedText({ max: 3 }).parse('  ')).toBe('');
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
      expect(pattern.test(text), JSON.stringify(text)).toBe(
        text.trim().length > 0,
      );
    }
  });
});
