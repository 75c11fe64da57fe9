import { z } from 'zod';

/** The schema under optional/nullable/default/effects/pipeline wrappers: what the value is checked as. */
export function unwrapSchema(schema: z.ZodTypeAny): z.ZodTypeAny {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) {
    return unwrapSchema(schema.unwrap() as z.ZodTypeAny);
  }
  if (schema instanceof z.ZodDefault) {
    return unwrapSchema(schema.removeDefault() as z.ZodTypeAny);
  }
  if (schema instanceof z.ZodEffects) {
    return unwrapSchema(schema.innerType() as z.ZodTypeAny);
  }
  if (schema instanceof z.ZodPipeline) {
    return unwrapSchema(schema._def.in as z.ZodTypeAny);
  }
  return schema;
}

/** The fields of an object schema, or undefined when the schema is not (a wrapped) zod object. */
export function objectShape(schema: unknown): z.ZodRawShape | undefined {
  if (!(schema instanceof z.ZodType)) {
    return undefined;
  }
  const unwrapped = unwrapSchema(schema);
  return unwrapped instanceof z.ZodObject ? (unwrapped.shape as z.ZodRawShape) : undefined;
}
