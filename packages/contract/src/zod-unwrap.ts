import { z, type ZodTypeAny } from 'zod';

/** The schema one wrapper (optional, nullable, default, effects, pipeline, …) down, if any. */
export function innerSchema(schema: ZodTypeAny): ZodTypeAny | undefined {
  // A shape looked up by a key it inherits (`__proto__`) gives something other than a schema.
  if (!(schema instanceof z.ZodType)) return undefined;
  if (schema instanceof z.ZodEffects) return schema.innerType() as ZodTypeAny;
  if (schema instanceof z.ZodPipeline) return schema._def.in as ZodTypeAny;
  if (schema instanceof z.ZodBranded) return schema.unwrap() as ZodTypeAny;
  // Optional, nullable, default, readonly and catch keep theirs as `innerType`.
  return (schema._def as { innerType?: ZodTypeAny }).innerType;
}

/** The schema under every wrapper: what a value is checked as. */
export function unwrapSchema(schema: ZodTypeAny): ZodTypeAny {
  const inner = innerSchema(schema);
  return inner === undefined ? schema : unwrapSchema(inner);
}

/** The fields of a (wrapped) object schema, or undefined when it is not one. */
export function objectShape(schema: unknown): z.ZodRawShape | undefined {
  const unwrapped =
    schema instanceof z.ZodType ? unwrapSchema(schema) : undefined;
  return unwrapped instanceof z.ZodObject
    ? (unwrapped.shape as z.ZodRawShape)
    : undefined;
}
