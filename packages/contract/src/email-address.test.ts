import { describe, expect, it } from 'vitest';
import { NewAccountSchema } from './accounts.js';

const accepts = (email: string) =>
  NewAccountSchema.safeParse({ email }).success;

describe('email addresses', () => {
  it.each([
    'kb^dnm82e@example.com',
    "o'brien+tag@mail.example.co.uk",
    "!#$%&'*+-/=?^_`{|}~@example.com",
    'first.middle.last@example.com',
    'jane@xn--bcher-kva.example',
    'a@b.cd',
    'digits123@123.example.org',
    `${'a'.repeat(64)}@example.com`,
  ])('accepts %s, as RFC 5322 writes an address', (email) => {
    expect(accepts(email)).toBe(true);
  });

  it.each([
    'jane',
    'jane@',
    '@example.com',
    'jane@example',
    '.jane@example.com',
    'jane.@example.com',
    'ja..ne@example.com',
    '"jane doe"@example.com',
    'jane@[192.0.2.1]',
    'jane@192.0.2.1',
    'jane@-example.com',
    'jane@example-.com',
    'jane@exa_mple.com',
    'jane doe@example.com',
    'jané@example.com',
    'jane@example.com.',
    `jane@${'a'.repeat(64)}.com`,
    `${'a'.repeat(65)}@example.com`,
    `${'a.'.repeat(32)}b@example.com`,
  ])('refuses %s', (email) => {
    expect(accepts(email)).toBe(false);
  });
});
