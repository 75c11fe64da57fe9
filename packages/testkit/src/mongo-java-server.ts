import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startDatabaseProcess } from './database-process.js';
import { freePort } from './free-port.js';
import type { MongoServer } from './mongo-server.js';
import { repoRoot } from './repo-root.js';

export interface MongoJavaServerOptions {
  /** Keeps the data in an H2 file in this folder across restarts; without it, in memory. */
  dataDir?: string;
  /** The port on 127.0.0.1; a free one when absent. */
  port?: number;
}

export function mongoJavaServerJar(): string {
  return join(repoRoot(), '.tools', 'mongo-java-server', 'petstore-testdb.jar');
}

/**
 * The embedded database: mongo-java-server, a MongoDB-compatible server that applies each update
 * to a document atomically whatever connection it comes on, so several processes of a service
 * can share it. With `dataDir` every write is in its file before it is acknowledged. A process of
 * this one's own, never outliving it.
 */
export async function startMongoJavaServer(
  options: MongoJavaServerOptions = {},
): Promise<MongoServer> {
  const jar = mongoJavaServerJar();
  if (!existsSync(jar)) {
    throw new Error(
      `[testkit] ${jar} is missing: run 'bash scripts/install-mongo-java-server.sh' (pnpm test runs it)`,
    );
  }
  const port = options.port ?? (await freePort());
  const args = ['-XX:+UseSerialGC', '-jar', jar, String(port)];
  if (options.dataDir) {
    await mkdir(options.dataDir, { recursive: true });
    args.push(join(options.dataDir, 'petstore.mv'));
  }
  return startDatabaseProcess({
    command: 'java',
    args,
    uri: `mongodb://127.0.0.1:${port}/`,
    timeoutMs: 30_000,
  });
}
