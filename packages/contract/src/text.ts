import { z } from './zod.js';

/** The documented `pattern` of a trimmed, non-empty text: one character `trim` keeps. */
export const NOT_BLANK_PATTERN =
  '[^\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]';

/** How many Unicode code points `value` has: what JSON Schema's `minLength`/`maxLength` count. */
export function codePointLength(value: string): number {
  return [...value].length;
}

interface Limits {
  min?: number;
  max: number;
}

/** `schema` limited to `min`–`max` code points (zod counts UTF-16 units), after its own checks. */
export function lengthInCodePoints(schema: z.ZodString, limits: Limits) {
  return schema
    .superRefine(lengthCheck(limits))
    .openapi(lengthKeywords(limits));
}

/**
 * A text counted as sent, then trimmed: the documented `maxLength` is exactly what is refused.
 * With `min`, a text that is blank once trimmed is too short (`NOT_BLANK_PATTERN`).
 */
export function trimmedText(limits: Limits) {
  return z
    .string()
    .superRefine(lengthCheck(limits, (value) => value.trim() === ''))
    .transform((value) => value.trim())
    .openapi({
      ...lengthKeywords(limits),
      ...(limits.min === undefined ? {} : { pattern: NOT_BLANK_PATTERN }),
    });
}

function lengthCheck(
  { min, max }: Limits,
  isBlank = (_value: string) => false,
) {
  return (value: string, ctx: z.RefinementCtx) => {
    const length = codePointLength(value);
    if (length > max) {
      ctx.addIssue({
        code: 'too_big',
        type: 'string',
        maximum: max,
        inclusive: true,
      });
    } else if (min !== undefined && (length < min || isBlank(value))) {
      ctx.addIssue({
        code: 'too_small',
        type: 'string',
        minimum: min,
        inclusive: true,
      });
    }
  };
}

function lengthKeywords({ min, max }: Limits) {
  return min === undefined
    ? { maxLength: max }
    : { minLength: min, maxLength: max };
}
