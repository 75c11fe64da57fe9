import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { printPretty } from './service-process.js';

/** What `printPretty` makes of the lines written to a process's output, without colours. */
async function prettyOf(lines: string[]): Promise<string[]> {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
  });
  printPretty(input, output, 'gateway-2');
  // Written in pieces that split lines, as a pipe delivers them.
  const all = lines.join('\n') + '\n';
  input.write(all.slice(0, 40));
  input.end(all.slice(40));
  const written = () =>
    stripVTControlCharacters(text).split('\n').filter(Boolean);
  await vi.waitFor(() => {
    expect(written()).toHaveLength(lines.length);
  });
  return written();
}

describe('printPretty', () => {
  it('writes one line per entry: time, level, process, message and the other fields', async () => {
    const base = {
      level: 30,
      time: Date.UTC(2026, 0, 1),
      pid: 42,
      hostname: 'box',
      name: 'gateway',
    };
    const lines = await prettyOf([
      JSON.stringify({
        ...base,
        requestId: 'req-1',
        method: 'GET',
        path: '/v1/pets',
        status: 200,
        durationMs: 3.1,
        msg: 'request completed',
      }),
      JSON.stringify({
        ...base,
        level: 50,
        url: 'http://127.0.0.1:8080',
        msg: 'listening',
      }),
    ]);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: gateway-2: request completed GET \/v1\/pets 200 3\.1 ms \{"requestId":"req-1"\}$/,
    );
    expect(lines[1]).toMatch(
      / ERROR: gateway-2: listening \{"url":"http:\/\/127\.0\.0\.1:8080"\}$/,
    );
  });

  it('passes a line that is not JSON as it is, after the process’s name', async () => {
    expect(await prettyOf(['TypeError: boom', '    at main.js:1:1'])).toEqual([
      'gateway-2: TypeError: boom',
      'gateway-2:     at main.js:1:1',
    ]);
  });
});
