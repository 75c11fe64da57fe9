import { z, type ZodTypeAny, type ZodTypeDef } from 'zod';
import { innerSchema } from '../../zod-unwrap.js';

/** The example the contract gives a schema, on the schema itself or on a wrapper inside it. */
export function declaredExample(schema: ZodTypeAny): unknown {
  for (
    let current: ZodTypeAny | undefined = schema;
    current;
    current = innerSchema(current)
  ) {
    const metadata = (current._def as ZodTypeDef).openapi?.metadata;
    const example: unknown = metadata?.example ?? metadata?.param?.example;
    if (example !== undefined) {
      return example;
    }
  }
  return undefined;
}

/** A value the schema accepts: its example, else its default, else one built from its shape. */
export function exampleValue(schema: ZodTypeAny): unknown {
  const declared = declaredExample(schema);
  if (declared !== undefined) {
    return declared;
  }
  if (schema instanceof z.ZodDefault) {
    return schema._def.defaultValue() as unknown;
  }
  const inner = innerSchema(schema);
  if (inner !== undefined) {
    return exampleValue(inner);
  }
  if (schema instanceof z.ZodObject) {
    return Object.fromEntries(exampleFields(schema.shape as z.ZodRawShape));
  }
  if (schema instanceof z.ZodArray) {
    const item = exampleValue(schema.element as ZodTypeAny);
    return item === undefined ? [] : [item];
  }
  if (schema instanceof z.ZodEnum) {
    return (schema.options as unknown[])[0];
  }
  if (schema instanceof z.ZodLiteral) {
    return schema.value as unknown;
  }
  if (schema instanceof z.ZodNumber) {
    return 1;
  }
  return undefined;
}

/** The fields a sample sends, with their values: the required ones and those with an example. */
export function exampleFields(shape: z.ZodRawShape): [string, unknown][] {
  return Object.entries(shape)
    .filter(
      ([, field]) =>
        !field.isOptional() || declaredExample(field) !== undefined,
    )
    .map(([name, field]): [string, unknown] => [name, exampleValue(field)])
    .filter(([, value]) => value !== undefined);
}
