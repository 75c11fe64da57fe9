import { describe, expect, it } from 'vitest';
import { ApiKeyIdSchema, IdParamSchema, IdSchema, storedId } from './ids.js';

describe('IdParamSchema (ids in paths and queries)', () => {
  it.each([
    ['0', 0n],
    ['1', 1n],
    ['007', 7n],
    ['9007199254740993', 9007199254740993n],
    ['9223372036854775806', 9223372036854775806n],
    ['9223372036854775807', 9223372036854775807n],
  ])('accepts %s as exactly %s', (value, expected) => {
    expect(IdParamSchema.parse(value)).toBe(expected);
  });

  it.each([
    ['9223372036854775808', 'one above int64'],
    ['99999999999999999999', '20 digits'],
    ['-1', 'negative'],
    ['1.5', 'a fraction'],
    ['1e3', 'an exponent'],
    ['', 'empty'],
    ['abc', 'not a number'],
    [' 1', 'a leading space'],
    ['1 ', 'a trailing space'],
    ['0x1f', 'hexadecimal'],
    ['+1', 'a sign'],
  ])('rejects %j (%s) as a validation issue', (value) => {
    const result = IdParamSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'must be an integer from 0 to 9223372036854775807',
    );
  });
});

describe('storedId', () => {
  it('is exact up to 2^53 - 1 and past every issued id beyond it', () => {
    expect(storedId(9007199254740991n)).toBe(Number.MAX_SAFE_INTEGER);
    expect(storedId(9007199254740993n)).toBeGreaterThan(
      Number.MAX_SAFE_INTEGER,
    );
  });
});

describe('IdSchema (ids in bodies and responses)', () => {
  it('accepts integers from 0 to 2^53 - 1', () => {
    expect(IdSchema.parse(0)).toBe(0);
    expect(IdSchema.parse(Number.MAX_SAFE_INTEGER)).toBe(
      Number.MAX_SAFE_INTEGER,
    );
  });

  it.each([[-1], [1.5], [2 ** 53], ['1']])('rejects %j', (value) => {
    expect(IdSchema.safeParse(value).success).toBe(false);
  });
});

describe('prefixed string ids', () => {
  it('accepts a key id and rejects another kind of id', () => {
    expect(ApiKeyIdSchema.parse('key_3Jt8wQ5nR2cY6uDe')).toBe(
      'key_3Jt8wQ5nR2cY6uDe',
    );
    expect(ApiKeyIdSchema.safeParse('acct_3Jt8wQ5nR2cY6uDe').success).toBe(
      false,
    );
    expect(ApiKeyIdSchema.safeParse('key_').success).toBe(false);
    expect(ApiKeyIdSchema.safeParse('key_a/b').success).toBe(false);
  });
});
