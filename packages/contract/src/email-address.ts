import { z } from './zod.js';

// RFC 5322's addr-spec as mail is addressed in practice: a dot-atom local part (letters, digits and
// !#$%&'*+-/=?^_`{|}~, dots between them) and a host name (RFC 1123 labels of 1–63 letters, digits
// and inner hyphens, at least two, the last starting with a letter). Quoted local parts, comments,
// address literals (`[192.0.2.1]`) and non-ASCII addresses are not accepted. As RFC 5321 has it,
// the local part is at most 64 characters, the whole at most 254.
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const TOP_LABEL = '[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

const EMAIL_PATTERN = new RegExp(
  `^${ATEXT}(?:\\.${ATEXT})*@(?:${LABEL}\\.)+${TOP_LABEL}$`,
);

export const EMAIL_DESCRIPTION =
  "An address as RFC 5322's addr-spec writes it in practice: a local part of letters, digits, " +
  "`!#$%&'*+-/=?^_`{|}~` and single inner dots, `@`, and a host name of at least two labels " +
  '(letters, digits, inner hyphens; 1–63 each, the last starting with a letter). No quoted local ' +
  'part, comment, address literal or non-ASCII character. The local part is at most 64 characters ' +
  '(RFC 5321), the whole at most 254.';

const LOCAL_PART_MAX = 64;
const MAX_LENGTH = 254;

function emailAddress(text: z.ZodString) {
  return text
    .regex(EMAIL_PATTERN, 'must be an email address')
    .refine(
      (address) => address.lastIndexOf('@') <= LOCAL_PART_MAX,
      `the part before @ must be at most ${LOCAL_PART_MAX} characters`,
    );
}

/** An email address as the API answers it. */
export const EmailAddressSchema = emailAddress(z.string().max(MAX_LENGTH));

/** An email address as a client sends it: its length counted as sent, then trimmed and lower-cased. */
export const EmailAddressInputSchema = emailAddress(
  z.string().max(MAX_LENGTH).trim().toLowerCase(),
);
