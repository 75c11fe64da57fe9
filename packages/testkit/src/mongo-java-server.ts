import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { answeringServer } from './answering-server.js';
import { freePort } from './free-port.js';
import { spawnGuarded, stopGuarded } from './guarded-process.js';
import type { MongoServer } from './mongo-server.js';
import { repoRoot } from './repo-root.js';

export interface MongoJavaServerOptions {
  /** Keeps the data in this H2 file across restarts; without it the data lives in memory. */
  dataFile?: string;
  /** The port on 127.0.0.1; a free one when absent. */
  port?: number;
}

export function mongoJavaServerJar(): string {
  return join(repoRoot(), '.tools', 'mongo-java-server', 'petstore-testdb.jar');
}

/**
 * mongo-java-server, a MongoDB-compatible server that, unlike FerretDB 1.x, applies each update
 * to a document atomically whatever connection it comes on: the database for running several
 * processes of a service. A process of this one's own, never outliving it.
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
  if (options.dataFile) args.push(options.dataFile);
  const child = spawnGuarded('java', args);
  let output = '';
  child.stdout?.resume();
  child.stderr
    ?.setEncoding('utf8')
    .on('data', (chunk: string) => (output = (output + chunk).slice(-4000)));
  const startup = new AbortController();
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      startup.abort(
        new Error(`[testkit] mongo-java-server exited during start-up: ${output.trim()}`),
      );
      resolve();
    }),
  );
  const stop = async () => {
    await stopGuarded(child);
    await exited;
  };
  return answeringServer(`mongodb://127.0.0.1:${port}/`, 'mongo-java-server', stop, {
    timeoutMs: 30_000,
    signal: startup.signal,
  });
}
