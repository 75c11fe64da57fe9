/** The system or undici code of a failed request: on the error, or on its cause (`fetch`). */
export function errorCode(error: unknown): string | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  for (const failure of [error, cause]) {
    const code = (failure as { code?: unknown } | null | undefined)?.code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}
