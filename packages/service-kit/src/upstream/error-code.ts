/** The system or undici code of a failed request: on the error, or on its cause (`fetch`). */
export function errorCode(error: unknown): string | undefined {
  const own = codeOf(error);
  if (own !== undefined) return own;
  return error instanceof Error ? codeOf(error.cause) : undefined;
}

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error))
    return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
