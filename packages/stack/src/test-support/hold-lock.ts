import { lockDataDir } from '../data-dir-lock.js';

// Holds the lock of the data folder given, says so, and waits to be killed.
await lockDataDir(process.argv[2] ?? '');
process.stdout.write('locked\n');
setInterval(() => undefined, 60_000);
