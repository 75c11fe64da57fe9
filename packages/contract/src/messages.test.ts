import { describe, expect, it } from 'vitest';
import { NewMessageSchema } from './messages.js';

describe('NewMessageSchema', () => {
  it('accepts a message of 1 to 10 000 characters', () => {
    expect(NewMessageSchema.safeParse({ message: 'x' }).success).toBe(true);
    expect(
      NewMessageSchema.safeParse({ message: 'x'.repeat(10_000) }).success,
    ).toBe(true);
  });

  it('rejects an empty message and one of 10 001 characters', () => {
    expect(NewMessageSchema.safeParse({ message: '' }).success).toBe(false);
    expect(
      NewMessageSchema.safeParse({ message: 'x'.repeat(10_001) }).success,
    ).toBe(false);
  });
});
