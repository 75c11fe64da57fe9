import fc from 'fast-check';
import { z } from 'zod';

/** How to build the arbitraries of a schema beyond what the schema itself says. */
export interface ArbitraryOptions {
  /**
   * Values worth trying more often than chance would, by field name (the ids of things that
   * exist); each is offered in whatever form the field's schema accepts (number or string).
   */
  known?: Record<string, readonly (string | number)[]>;
  /** The characters of free text: any Unicode (bodies), or visible ASCII (header values). */
  text?: 'unicode' | 'header';
}

const INT64_MAX = 2n ** 63n - 1n;
/** Past a few items an array shows nothing new, and costs requests. */
const MAX_ARRAY_ITEMS = 4;

/** The `.openapi(…)` metadata of a schema, where the contract keeps formats and examples. */
function openapiOf(
  schema: z.ZodTypeAny,
): { type?: string; format?: string } | undefined {
  const def = schema._def as {
    openapi?: { metadata?: { type?: string; format?: string } };
  };
  return def.openapi?.metadata;
}

const visibleAscii = fc
  .integer({ min: 0x21, max: 0x7e })
  .map((code) => String.fromCharCode(code));

function stringArbitrary(
  schema: z.ZodString,
  options: ArbitraryOptions,
): fc.Arbitrary<string> {
  let minLength = 0;
  let maxLength: number | undefined;
  let url = false;
  for (const check of schema._def.checks) {
    switch (check.kind) {
      case 'min':
        minLength = Math.max(minLength, check.value);
        break;
      case 'max':
        maxLength = Math.min(maxLength ?? Infinity, check.value);
        break;
      case 'length':
        minLength = check.value;
        maxLength = check.value;
        break;
      case 'regex':
        return fc.stringMatching(check.regex);
      case 'email':
        return fc.oneof(
          fc
            .tuple(
              fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,20}[a-z0-9]$/),
              fc.constantFrom('example.com', 'example.org', 'mail.example.net'),
            )
            .map(([local, domain]) => `${local}@${domain}`),
          fc.emailAddress(),
        );
      case 'datetime': {
        const instant = fc
          .date({
            min: new Date('2000-01-01T00:00:00Z'),
            max: new Date('2099-12-31T23:59:59Z'),
            noInvalidDate: true,
          })
          .map((date) => date.toISOString());
        if (!check.offset) return instant;
        return fc.oneof(
          instant,
          fc
            .tuple(instant, fc.integer({ min: -12, max: 14 }))
            .map(
              ([iso, hours]) =>
                `${iso.slice(0, -1)}${hours < 0 ? '-' : '+'}${String(Math.abs(hours)).padStart(2, '0')}:00`,
            ),
        );
      }
      case 'url':
        url = true;
        break;
      case 'trim':
      case 'toLowerCase':
        break;
      default:
        throw new Error(`no arbitrary for a string with a ${check.kind} check`);
    }
  }
  if (url) {
    const within = (text: string) =>
      text.length >= minLength && text.length <= (maxLength ?? Infinity);
    return fc
      .webUrl({
        validSchemes: ['https', 'http'],
        withQueryParameters: true,
        withFragments: true,
      })
      .filter(within);
  }
  const limits = { minLength, ...(maxLength !== undefined && { maxLength }) };
  if (options.text === 'header')
    return fc.string({ ...limits, unit: visibleAscii });
  return fc.oneof(
    fc.string({ ...limits, unit: 'binary-ascii' }),
    fc.string({ ...limits, unit: 'grapheme' }),
    fc.string({ ...limits, unit: 'binary' }),
  );
}

function numberArbitrary(schema: z.ZodNumber): fc.Arbitrary<number> {
  let min = -Number.MAX_SAFE_INTEGER;
  let max = Number.MAX_SAFE_INTEGER;
  let integer = false;
  for (const check of schema._def.checks) {
    if (check.kind === 'int') integer = true;
    else if (check.kind === 'min')
      min = Math.max(min, check.inclusive ? check.value : check.value + 1);
    else if (check.kind === 'max')
      max = Math.min(max, check.inclusive ? check.value : check.value - 1);
    else
      throw new Error(`no arbitrary for a number with a ${check.kind} check`);
  }
  if (integer) return fc.bigInt(BigInt(min), BigInt(max)).map(Number);
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** Offers the known values of a field, in the forms its schema accepts, beside the derived ones. */
function withKnown(
  derived: fc.Arbitrary<unknown>,
  schema: z.ZodTypeAny,
  known: readonly (string | number)[] | undefined,
): fc.Arbitrary<unknown> {
  const forms = (known ?? [])
    .flatMap((value) => [value, String(value), Number(value)])
    .filter((value) => schema.safeParse(value).success);
  return forms.length === 0
    ? derived
    : fc.oneof(derived, fc.constantFrom(...forms));
}

/**
 * An arbitrary of values the schema accepts, derived from the shapes the contract uses: objects,
 * strings (lengths, regex, email, datetime, url), numbers (int, bounds; coerced ones as strings),
 * enums, literals, booleans, arrays, optional, nullable and default fields, and effects (the
 * schema inside; an int64 path id, a string transformed into a number, from its `format`).
 * Anything else throws, so a new shape in the contract is noticed. Some values may still fail
 * a refinement (a trimmed string left empty, a lone surrogate): filter by the schema itself.
 */
export function arbitraryOf(
  schema: z.ZodTypeAny,
  options: ArbitraryOptions = {},
): fc.Arbitrary<unknown> {
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, z.ZodTypeAny>;
    const fields = Object.fromEntries(
      Object.entries(shape).map(([key, field]) => [
        key,
        withKnown(arbitraryOf(field, options), field, options.known?.[key]),
      ]),
    );
    const requiredKeys = Object.keys(shape).filter(
      (key) => !shape[key]?.isOptional(),
    );
    return fc.record(fields, { requiredKeys });
  }
  if (schema instanceof z.ZodEffects) {
    const metadata = openapiOf(schema);
    if (metadata?.type === 'integer' && metadata.format === 'int64') {
      return fc.bigInt(0n, INT64_MAX).map(String);
    }
    return arbitraryOf(schema.innerType() as z.ZodTypeAny, options);
  }
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) {
    const inner = (
      schema instanceof z.ZodOptional ? schema.unwrap() : schema.removeDefault()
    ) as z.ZodTypeAny;
    return fc.option(arbitraryOf(inner, options), { nil: undefined });
  }
  if (schema instanceof z.ZodNullable) {
    return fc.option(arbitraryOf(schema.unwrap() as z.ZodTypeAny, options), {
      nil: null,
    });
  }
  if (schema instanceof z.ZodString) return stringArbitrary(schema, options);
  if (schema instanceof z.ZodNumber) {
    const numbers = numberArbitrary(schema);
    return schema._def.coerce ? numbers.map(String) : numbers;
  }
  if (schema instanceof z.ZodBoolean) return fc.boolean();
  if (schema instanceof z.ZodEnum)
    return fc.constantFrom(...(schema.options as string[]));
  if (schema instanceof z.ZodLiteral)
    return fc.constant(schema.value as unknown);
  if (schema instanceof z.ZodArray) {
    const { minLength, maxLength } = schema._def;
    return fc.array(arbitraryOf(schema.element as z.ZodTypeAny, options), {
      minLength: minLength?.value ?? 0,
      maxLength: Math.max(
        minLength?.value ?? 0,
        Math.min(maxLength?.value ?? Infinity, MAX_ARRAY_ITEMS),
      ),
    });
  }
  throw new Error(
    `no arbitrary for ${(schema._def as { typeName?: string }).typeName}`,
  );
}

/** Values of `schema`, exactly those it accepts. */
export function validArbitraryOf(
  schema: z.ZodTypeAny,
  options: ArbitraryOptions = {},
): fc.Arbitrary<unknown> {
  return arbitraryOf(schema, options).filter(
    (value) => schema.safeParse(value).success,
  );
}
