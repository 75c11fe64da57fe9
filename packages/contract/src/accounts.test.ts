import { describe, expect, it } from 'vitest';
import { AccountSchema, NewAccountSchema } from './accounts.js';

describe('account schemas', () => {
  it('stores an email trimmed and lower-cased', () => {
    expect(NewAccountSchema.parse({ email: '  Jane@Example.COM ' })).toEqual({
      email: 'jane@example.com',
    });
  });

  it('rejects an invalid email and one longer than 254 characters', () => {
    expect(NewAccountSchema.safeParse({ email: 'jane' }).success).toBe(false);
    const long = `${'a'.repeat(64)}@${'b'.repeat(62)}.${'c'.repeat(62)}.${'d'.repeat(60)}.com`;
    expect(long).toHaveLength(255);
    expect(NewAccountSchema.safeParse({ email: long }).success).toBe(false);
  });

  it('counts an email as sent, before trimming it', () => {
    const email = `${'a'.repeat(64)}@${'b'.repeat(62)}.${'c'.repeat(62)}.${'d'.repeat(59)}.com`;
    expect(email).toHaveLength(254);
    expect(NewAccountSchema.safeParse({ email }).success).toBe(true);
    expect(NewAccountSchema.safeParse({ email: ` ${email}` }).success).toBe(
      false,
    );
  });

  it('answers an account without a name with name null', () => {
    const account = {
      id: 'acct_7Hq2mZ9xK4pL1sVb',
      email: 'jane@example.com',
      name: null,
      role: 'customer',
      createdAt: '2026-01-15T09:30:00Z',
    };
    expect(AccountSchema.parse(account)).toEqual(account);
  });
});
