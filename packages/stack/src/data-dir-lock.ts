import lockfile from 'proper-lockfile';

/**
 * Holds the data folder for this stack, so that a second stack on it fails before starting
 * anything (a second embedded database on the same files). The lock is refreshed while held and
 * taken over once stale, so a stack that was killed leaves nothing that needs removing by hand.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: `${dataDir}/stack.lock`,
      stale: 10_000,
      update: 2_000,
      // A lock whose refresh failed (the machine stalled) is not worth stopping the stack for.
      onCompromised: () => undefined,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new Error(
        `[stack] another stack is running on ${dataDir} (DATA_DIR): stop it, or set DATA_DIR to another folder`,
      );
    }
    throw error;
  }
}
