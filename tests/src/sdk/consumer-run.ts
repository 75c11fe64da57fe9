import type { ChildProcess } from 'node:child_process';
import { spawnGuarded, stopGuarded } from '@petstore/testkit';

/** A line a consumer printed: JSON as it wrote it, or the text of a line that is not JSON. */
export type Line = Record<string, unknown> | string;

interface Waiter {
  matches: (line: Line) => boolean;
  resolve: (line: Line) => void;
  reject: (error: Error) => void;
}

function parse(text: string): Line {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : text;
  } catch {
    return text;
  }
}

/**
 * A consumer program run with `node` as a guarded child (it ends with this process, whatever
 * happens), whose stdout is read line by line as it comes, so that a test can react to a line.
 */
export class ConsumerRun implements AsyncDisposable {
  readonly lines: Line[] = [];
  #stderr = '';
  #waiters: Waiter[] = [];
  #closed = false;
  readonly #child: ChildProcess;
  /** Resolves with the exit code once the program has ended. */
  readonly exited: Promise<number | null>;

  constructor(file: string, env: NodeJS.ProcessEnv) {
    this.#child = spawnGuarded(process.execPath, [file], {
      env: { ...process.env, ...env },
    });
    let partial = '';
    this.#child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      const texts = (partial + chunk).split('\n');
      partial = texts.pop() ?? '';
      for (const text of texts) if (text) this.#take(parse(text));
    });
    this.#child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.#stderr += chunk;
    });
    this.exited = new Promise((resolve) => {
      this.#child.once('close', (code) => {
        if (partial) this.#take(parse(partial));
        this.#closed = true;
        for (const waiter of this.#waiters.splice(0))
          waiter.reject(this.#ended(code));
        resolve(code);
      });
    });
  }

  /** The first line, printed already or to come, that matches; fails if the program ends first. */
  next(matches: (line: Line) => boolean): Promise<Line> {
    const printed = this.lines.find(matches);
    if (printed !== undefined) return Promise.resolve(printed);
    if (this.#closed) return Promise.reject(this.#ended(this.#child.exitCode));
    return new Promise((resolve, reject) =>
      this.#waiters.push({ matches, resolve, reject }),
    );
  }

  /** The value under `key` of the last line, once the program has ended well. */
  async result(key: string): Promise<unknown> {
    const code = await this.exited;
    const last = this.lines.at(-1);
    if (code !== 0 || typeof last !== 'object' || !(key in last))
      throw this.#ended(code);
    return last[key];
  }

  #take(line: Line): void {
    this.lines.push(line);
    for (const waiter of [...this.#waiters]) {
      if (!waiter.matches(line)) continue;
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  }

  #ended(code: number | null): Error {
    const stdout = this.lines.map((line) => JSON.stringify(line)).join('\n');
    return new Error(
      `[sdk] the consumer ended (${code}):\n${stdout}\n${this.#stderr}`,
    );
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await stopGuarded(this.#child);
  }
}
