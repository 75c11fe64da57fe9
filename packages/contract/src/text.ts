import type { z } from './zod.js';

/** The documented `pattern` of a trimmed, non-empty text: one character `trim` keeps. */
export const NOT_BLANK_PATTERN =
  '[^\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]';

/** How many Unicode code points `value` has: what JSON Schema's `minLength`/`maxLength` count. */
export function codePointLength(value: string): number {
  return [...value].length;
}

/** `schema` held to `min`–`max` code points (zod counts UTF-16 units), after its own checks. */
export function lengthInCodePoints(
  schema: z.ZodString,
  { min, max }: { min?: number; max: number },
) {
  return schema
    .superRefine((value, ctx) => {
      const length = codePointLength(value);
      if (min !== undefined && length < min) {
        ctx.addIssue({ code: 'too_small', type: 'string', minimum: min, inclusive: true });
      } else if (length > max) {
        ctx.addIssue({ code: 'too_big', type: 'string', maximum: max, inclusive: true });
      }
    })
    .openapi(min === undefined ? { maxLength: max } : { minLength: min, maxLength: max });
}
