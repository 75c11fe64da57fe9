import type { z } from 'zod';

export type Env = Record<string, string | undefined>;

/**
 * Parses the environment once with `schema`. On failure the message names every missing or
 * invalid variable (never its value, which may be a secret).
 */
export function loadConfig<Schema extends z.ZodTypeAny>(
  schema: Schema,
  env: Env = process.env,
): z.output<Schema> {
  const result = schema.safeParse(env);
  if (result.success) return result.data as z.output<Schema>;
  const lines = result.error.issues.map(
    (issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`,
  );
  throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
}

/**
 * What `load` returns; when it throws, as `loadConfig` does on a bad environment, writes the
 * message to stderr and exits 1. The message names every bad variable; a stack trace would add
 * nothing to it.
 */
export function loadOrExit<Config>(load: () => Config): Config {
  try {
    return load();
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
