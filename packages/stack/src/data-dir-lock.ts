import { readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import lockfile from 'proper-lockfile';

/**
 * Holds the data folder for this stack, so that a second stack on it fails before starting
 * anything (a second embedded database on the same files). The lock is refreshed while held and
 * taken over once stale, so a stack that was killed leaves nothing that needs removing by hand;
 * when the process that held it is gone (killed with everything it started), it is taken over at
 * once, with `log` saying so.
 */
export async function lockDataDir(
  dataDir: string,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<() => Promise<void>> {
  const lockDir = `${dataDir}/stack.lock`;
  const holderFile = `${dataDir}/stack.lock.holder`;
  const take = () =>
    lockfile.lock(dataDir, {
      lockfilePath: lockDir,
      stale: 10_000,
      update: 2_000,
      // A lock whose refresh failed (the machine stalled) is not worth stopping the stack for.
      onCompromised: () => undefined,
    });
  let release: () => Promise<void>;
  try {
    release = await take();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    const gone = await holderGone(holderFile);
    if (gone === undefined || !(await claim(holderFile, gone))) throw inUse(dataDir);
    log(`[stack] the stack that held ${dataDir} (pid ${gone}) is gone: taking its lock over`);
    await rmdir(lockDir).catch(() => undefined);
    try {
      release = await take();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw inUse(dataDir);
      throw error;
    }
  }
  await writeFile(holderFile, JSON.stringify({ pid: process.pid, host: hostname() }));
  return async () => {
    await rm(holderFile, { force: true });
    await release();
  };
}

function inUse(dataDir: string): Error {
  return new Error(
    `[stack] another stack is running on ${dataDir} (DATA_DIR): stop it, or set DATA_DIR to another folder`,
  );
}

/** The pid of the lock's holder when it ran on this machine and no longer runs; else undefined. */
async function holderGone(holderFile: string): Promise<number | undefined> {
  let holder: { pid?: unknown; host?: unknown };
  try {
    holder = JSON.parse(await readFile(holderFile, 'utf8')) as typeof holder;
  } catch {
    return undefined; // no holder written (yet): the lock's age decides
  }
  if (typeof holder.pid !== 'number' || holder.host !== hostname()) return undefined;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? holder.pid : undefined;
  }
  // Killed, but its parent (init, once its own parent was killed too) has not reaped it yet.
  const stat = await readFile(`/proc/${holder.pid}/stat`, 'utf8').catch(() => '');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z'
    ? holder.pid
    : undefined;
}

/**
 * Whether this process is the one that takes the lock of the gone `pid` over: of several stacks
 * starting at once, only the one whose rename moves the holder's file away does.
 */
async function claim(holderFile: string, pid: number): Promise<boolean> {
  const claimed = `${holderFile}.${process.pid}`;
  try {
    await rename(holderFile, claimed);
  } catch {
    return false;
  }
  const holder = JSON.parse(await readFile(claimed, 'utf8')) as { pid?: unknown };
  // Another stack took the lock over between the reading and the renaming: it is its own now.
  if (holder.pid !== pid) {
    await rename(claimed, holderFile);
    return false;
  }
  await rm(claimed, { force: true });
  return true;
}
