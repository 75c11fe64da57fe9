import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDatabaseProcess } from './database-process.js';
import { freePort } from './free-port.js';
import type { MongoServer } from './mongo-server.js';
import { repoRoot } from './repo-root.js';

export interface EmbeddedOptions {
  /** Keeps the data here across runs; without it a temporary folder is used and removed on stop. */
  dataDir?: string;
  /** The port on 127.0.0.1; a free one when absent. */
  port?: number;
}

export function ferretdbBinary(): string {
  return join(repoRoot(), '.tools', 'bin', 'ferretdb');
}

export async function startEmbeddedFerretdb(options: EmbeddedOptions = {}): Promise<MongoServer> {
  const binary = ferretdbBinary();
  if (!existsSync(binary)) {
    throw new Error(
      `[testkit] ${binary} is missing: run 'bash scripts/install-ferretdb.sh' (pnpm test and pnpm start run it), set MONGODB_URI, or start a Docker daemon`,
    );
  }
  const dir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'petstore-ferretdb-')));
  await mkdir(dir, { recursive: true });
  const port = options.port ?? (await freePort());
  const args = [
    `--listen-addr=127.0.0.1:${port}`,
    '--handler=sqlite',
    `--sqlite-url=file:${dir}/`,
    `--state-dir=${dir}`,
    '--telemetry=disable',
    '--debug-addr=-',
    '--log-level=warn',
  ];
  return startDatabaseProcess({
    kind: 'ferretdb',
    command: binary,
    args,
    env: { ...process.env, DO_NOT_TRACK: '1' },
    uri: `mongodb://127.0.0.1:${port}/`,
    timeoutMs: 15_000,
    afterStop: async () => {
      if (!options.dataDir) await rm(dir, { recursive: true, force: true });
    },
  });
}
