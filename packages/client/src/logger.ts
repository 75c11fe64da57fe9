/**
 * Where the client writes what it does: each attempt, each retry and each response, at debug
 * level. `console` is one; so is a pino or winston logger.
 */
export interface Logger {
  debug(message: string, details: Record<string, unknown>): void;
}

const SECRET_HEADERS = new Set(['authorization', 'cookie']);

/** The headers of a request as a log may show them: credentials replaced. */
export function loggableHeaders(headers: Headers): Record<string, string> {
  const shown: Record<string, string> = {};
  headers.forEach((value, name) => {
    shown[name] = SECRET_HEADERS.has(name) ? '[redacted]' : value;
  });
  return shown;
}
