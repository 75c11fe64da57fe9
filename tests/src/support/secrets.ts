import { createHash } from 'node:crypto';

/** Substrings of a secret long enough that finding one means the secret leaked. */
export const PIECE_LENGTH = 16;

/** The SHA-256 hash of `text`, in hex: how the gateway stores a key. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Every piece of `secret` of `PIECE_LENGTH` characters (all of it, when shorter). */
export function pieces(secret: string): string[] {
  if (secret.length <= PIECE_LENGTH) return [secret];
  return Array.from({ length: secret.length - PIECE_LENGTH + 1 }, (_, i) =>
    secret.slice(i, i + PIECE_LENGTH),
  );
}
