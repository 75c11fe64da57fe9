import { existsSync } from 'node:fs';
import {
  mkdir,
  mkdtemp,
  readFile,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProgram, type RunOptions } from '../support/run-program.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const nodeBin = fileURLToPath(
  new URL('../../node_modules/.bin/', import.meta.url),
);
// Ignored by git, as Schemathesis's venv beside them is (scripts/contract-test.sh).
const tools = join(root, '.tools');

export const documentPath = join(root, 'packages/contract/openapi.json');
export const tsc = join(nodeBin, 'tsc');
export const openapiTypescript = join(nodeBin, 'openapi-typescript');

const generatorVersion = '7.25.0';
const pythonRequirements = [
  'openapi-python-client==0.29.1',
  'httpx==0.28.1',
  'attrs==26.1.0',
];

const howToInstall: Record<string, string> = {
  java: 'Java 17 or later (Debian: apt-get install openjdk-17-jdk-headless)',
  mvn: 'Maven 3.8 or later (Debian: apt-get install maven)',
  python3:
    'Python 3.11 or later with venv (Debian: apt-get install python3 python3-venv)',
};

/** Runs a program to its end; fails with its output, or with what to install when it is missing. */
export const run = (file: string, args: string[], options: RunOptions = {}) =>
  runProgram(file, args, { ...options, install: howToInstall[basename(file)] });

/** A fresh folder under the system's temporary one; the caller removes it. */
export const tempDir = () => mkdtemp(join(tmpdir(), 'petstore-clients-'));

export const removeDir = (dir: string) =>
  dir ? rm(dir, { recursive: true, force: true }) : Promise.resolve();

/** The OpenAPI Generator CLI jar, fetched from Maven Central the first time. */
export async function openapiGeneratorJar(): Promise<string> {
  const dir = join(tools, 'openapi-generator');
  const jar = join(dir, `openapi-generator-cli-${generatorVersion}.jar`);
  if (existsSync(jar)) return jar;
  await mkdir(dir, { recursive: true });
  // Maven copies into a folder of its own: an interrupted download leaves no half jar as the jar.
  const download = await mkdtemp(join(dir, 'download-'));
  try {
    const artifact = `org.openapitools:openapi-generator-cli:${generatorVersion}`;
    const copy = [
      'dependency:copy',
      `-Dartifact=${artifact}`,
      `-DoutputDirectory=${download}`,
    ];
    await run('mvn', ['-q', '-B', ...copy], { cwd: download });
    await rename(join(download, basename(jar)), jar);
  } finally {
    await removeDir(download);
  }
  return jar;
}

/** The bin folder of a venv with openapi-python-client and the generated client's dependencies. */
export async function pythonClientBin(): Promise<string> {
  const venv = join(tools, 'openapi-python-client');
  const stamp = join(venv, 'pinned.txt');
  const pinned = pythonRequirements.join('\n');
  if ((await readFile(stamp, 'utf8').catch(() => '')) === pinned)
    return join(venv, 'bin');
  await run('python3', ['-m', 'venv', '--clear', venv]);
  const install = [
    'install',
    '--quiet',
    '--disable-pip-version-check',
    ...pythonRequirements,
  ];
  await run(join(venv, 'bin', 'pip'), install);
  await writeFile(stamp, pinned);
  return join(venv, 'bin');
}
