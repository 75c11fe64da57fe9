import { execFile } from 'node:child_process';
import { basename } from 'node:path';

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** What to install when the program is not there, named in the error. */
  install?: string;
}

/** Runs a program to its end; fails with everything it wrote, or with what to install. */
export function runProgram(
  file: string,
  args: string[],
  { install, ...options }: RunOptions = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { ...options, maxBuffer: 256 << 20 },
      (error, stdout, stderr) => {
        if (!error) {
          resolve(stdout);
          return;
        }
        const name = basename(file);
        reject(
          new Error(
            error.code === 'ENOENT' && install
              ? `${name} is missing: install ${install}`
              : `${name} ${args.join(' ')}: ${error.message}\n${stdout}\n${stderr}`,
          ),
        );
      },
    );
  });
}
