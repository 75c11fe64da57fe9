import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { prettyFactory } from 'pino-pretty';

/** What a request's line holds, shown in its message instead. */
const REQUEST_FIELDS = ['method', 'path', 'status', 'durationMs'];

/**
 * Writes a process's JSON log lines to `out` as a person at a terminal reads them, one line each:
 * time, level, the process (`pets`, `store-2`), the message (with a request's method, path,
 * status and duration), then the other fields as JSON. A line that is not JSON (a crash's stack
 * trace) passes as it is, after the process's name.
 */
export function printPretty(lines: Readable, out: Writable, process: string): void {
  const prettify = prettyFactory({
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: ['pid', 'hostname', 'name', ...REQUEST_FIELDS].join(','),
    messageFormat: (log, messageKey) => {
      const request =
        typeof log.method === 'string'
          ? ` ${log.method} ${String(log.path)} ${String(log.status)} ${String(log.durationMs)} ms`
          : '';
      return `${process}: ${String(log[messageKey])}${request}`;
    },
  });
  createInterface({ input: lines, crlfDelay: Infinity }).on('line', (line) => {
    out.write(line.startsWith('{') ? prettify(line) : `${process}: ${line}\n`);
  });
}
