import { chmod, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDatabaseProcess } from './database-process.js';
import { freePort } from './free-port.js';
import { mongodBinary } from './mongod-binary.js';
import type { MongoServer } from './mongo-server.js';
import { replicaSetName } from './replica-set.js';

export interface MongodOptions {
  /**
   * Keeps the data in this folder across restarts, with mongod's log (`mongod.log`) beside it;
   * without it, in a temporary folder removed once mongod has exited, however it came to exit.
   */
  dataDir?: string;
  /** The port on 127.0.0.1; a free one when absent. */
  port?: number;
}

/**
 * Runs mongod and removes its folder (the first argument) once it has exited: when it is stopped
 * and when its owner is killed alike. A SIGTERM ends mongod at once, with SIGKILL: nothing in the
 * folder is kept anyway.
 */
const removingFolderAfter = `dir=$1
shift
"$@" &
pid=$!
# The shell's own word on how mongod ended goes nowhere: whoever read it may be gone.
exec 2>/dev/null
trap 'kill -KILL "$pid"' TERM
while :; do
  wait "$pid"
  status=$?
  kill -0 "$pid" 2>/dev/null || break
done
rm -rf "$dir"
exit "$status"`;

/**
 * The embedded database: a genuine mongod (`mongodBinary()`), as the one member of the replica set
 * `petstore`, so that transactions and change streams work as in production. Journaled, answering
 * a write with the default write concern (majority) once it is in the journal. A process of this
 * one's own, never outliving it.
 */
export async function startMongod(
  options: MongodOptions = {},
): Promise<MongoServer> {
  const binary = await mongodBinary();
  const port = options.port ?? (await freePort());
  const dbPath =
    options.dataDir ?? (await mkdtemp(join(tmpdir(), 'petstore-mongod-')));
  const args = [
    ...['--port', String(port), '--bind_ip', '127.0.0.1', '--nounixsocket'],
    ...['--dbpath', dbPath, '--replSet', replicaSetName],
    // Small enough for many at once on one machine.
    ...['--wiredTigerCacheSizeGB', '0.25'],
    // Journal files of 16 MB made when needed, rather than three of 100 MB made up front.
    ...['--wiredTigerEngineConfigString', 'log=(file_max=16MB,prealloc=false)'],
  ];
  let logFile: string | undefined;
  if (options.dataDir) {
    // mongod makes its own files 0600 and folders 0700 (honorSystemUmask is off by default);
    // its data folder is made so too, and tightened when an earlier run or a hand made it looser.
    await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
    await chmod(options.dataDir, 0o700);
    logFile = join(options.dataDir, 'mongod.log');
    args.push('--logpath', logFile, '--logappend', '--quiet');
  } else {
    // A test's data: no diagnostics kept, and an oplog of a size that suits a test.
    args.push(
      '--oplogSize',
      '128',
      '--setParameter',
      'diagnosticDataCollectionEnabled=false',
    );
  }
  const member = `127.0.0.1:${port}`;
  return startDatabaseProcess({
    ...(options.dataDir
      ? { command: binary, args }
      : {
          command: 'sh',
          args: ['-c', removingFolderAfter, 'sh', dbPath, binary, ...args],
        }),
    addresses: {
      uri: `mongodb://${member}/?replicaSet=${replicaSetName}`,
      directUri: `mongodb://${member}/?directConnection=true`,
      member,
    },
    timeoutMs: 60_000,
    logFile,
  });
}
