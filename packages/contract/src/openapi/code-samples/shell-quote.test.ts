import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellQuote } from './code-samples.js';

describe('shellQuote', () => {
  it('makes any text one word the shell passes through unchanged', () => {
    const text = `{"name":"Rex's bone"} $HOME \`date\` "\\n"`;
    const echoed = execFileSync(
      'bash',
      ['-c', `printf %s ${shellQuote(text)}`],
      {
        encoding: 'utf8',
      },
    );
    expect(echoed).toBe(text);
  });
});
