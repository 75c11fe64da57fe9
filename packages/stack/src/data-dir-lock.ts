import { readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import lockfile from 'proper-lockfile';

// A second stack on the folder (a second embedded database on the same files) fails before
// starting anything; the lock of a stack that is gone is taken over.
export async function lockDataDir(
  dataDir: string,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<() => Promise<void>> {
  const lockDir = `${dataDir}/stack.lock`;
  const holderFile = `${dataDir}/stack.lock.holder`;
  const inUse = new Error(
    `[stack] another stack is running on ${dataDir} (DATA_DIR): stop it, or set DATA_DIR to another folder`,
  );
  // A refresh that failed (the machine stalled) is not worth stopping the stack for.
  const lockOptions = { lockfilePath: lockDir, stale: 10_000, update: 2_000, onCompromised() {} };
  const take = () =>
    lockfile.lock(dataDir, lockOptions).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ELOCKED' ? inUse : error;
    });
  const release = await take().catch(async (error: unknown) => {
    if (error !== inUse) throw error;
    const gone = await holderGone(holderFile);
    if (gone === undefined || !(await claim(holderFile, gone))) throw inUse;
    log(`[stack] the stack that held ${dataDir} (pid ${gone}) is gone: taking its lock over`);
    await rmdir(lockDir).catch(() => undefined);
    return take();
  });
  await writeFile(holderFile, JSON.stringify({ pid: process.pid, host: hostname() }));
  return () => rm(holderFile, { force: true }).then(() => release());
}

const readHolder = (file: string) =>
  readFile(file, 'utf8').then((text) => JSON.parse(text) as { pid?: unknown; host?: unknown });

async function holderGone(holderFile: string): Promise<number | undefined> {
  // No holder written (yet): the lock's age decides.
  const holder = await readHolder(holderFile).catch(() => undefined);
  if (typeof holder?.pid !== 'number' || holder.host !== hostname()) return undefined;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? holder.pid : undefined;
  }
  // Killed, but not reaped yet by its parent (init, once its own parent was killed too).
  const stat = await readFile(`/proc/${holder.pid}/stat`, 'utf8').catch(() => '');
  return stat.charAt(stat.lastIndexOf(')') + 2) === 'Z' ? holder.pid : undefined;
}

/** Of several stacks starting at once, only the one whose rename moves the file away claims it. */
async function claim(holderFile: string, pid: number): Promise<boolean> {
  const claimed = `${holderFile}.${process.pid}`;
  if (await rename(holderFile, claimed).catch(() => true)) return false;
  // Another stack took the lock over between the reading and the renaming: it is its own now.
  if ((await readHolder(claimed)).pid !== pid) return rename(claimed, holderFile).then(() => false);
  await rm(claimed, { force: true });
  return true;
}
