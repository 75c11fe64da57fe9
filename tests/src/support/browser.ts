import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import {
  chromium,
  type Browser,
  type ConsoleMessage,
  type Page,
} from 'playwright-core';

/** Debian's chromium (`CHROMIUM_PATH` names another); a test that needs it fails without it. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  try {
    await access(executablePath, constants.X_OK);
  } catch {
    throw new Error(
      `[tests] no browser at ${executablePath}: Debian's chromium is needed: apt-get install chromium, or set CHROMIUM_PATH`,
    );
  }
  // Chromium refuses to start its sandbox as root (CI containers).
  const args = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  return chromium.launch({ executablePath, args });
}

/** What a page did that a test may forbid: what it logged as an error, and where it went. */
export interface PageWatch {
  /** Console errors and warnings, and uncaught exceptions. */
  problems(): Promise<string[]>;
  /** Every URL the page requested. */
  requests: string[];
}

export function watchPage(page: Page): PageWatch {
  const problems: Promise<string>[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(describe(message));
  });
  page.on('pageerror', (error) =>
    problems.push(Promise.resolve(`uncaught: ${error.message}`)),
  );
  page.on('request', (request) => requests.push(request.url()));
  return { problems: () => Promise.all(problems), requests };
}

/** The message with its arguments as JSON: Scalar logs objects, whose text is `[Object, Object]`. */
async function describe(message: ConsoleMessage): Promise<string> {
  const args = await Promise.all(
    message.args().map((arg) =>
      arg.jsonValue().then(
        (value) => JSON.stringify(value),
        () => message.text(),
      ),
    ),
  );
  return `console.${message.type()}: ${args.join(' ').slice(0, 600)}`;
}
