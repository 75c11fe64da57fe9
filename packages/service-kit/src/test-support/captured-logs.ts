import { createLogger, type Logger } from '../logger.js';

export interface CapturedLogs {
  logger: Logger;
  /** Every line written so far, exactly as it would reach stdout. */
  text(): string;
  /** Every line written so far, parsed. */
  lines(): Record<string, unknown>[];
}

export function captureLogs(): CapturedLogs {
  const written: string[] = [];
  const logger = createLogger({
    name: 'test',
    level: 'debug',
    destination: { write: (line: string) => void written.push(line) },
  });
  return {
    logger,
    text: () => written.join(''),
    lines: () =>
      written.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
