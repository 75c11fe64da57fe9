import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { prettyFactory } from 'pino-pretty';

// A line that is not JSON (a crash's stack trace) passes as it is, after the process's name.
export function printPretty(
  lines: Readable,
  out: Writable,
  process: string,
): void {
  const prettify = prettyFactory({
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,name,method,path,status,durationMs',
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
