import { startStack } from '../start-stack.js';

// Starts the whole API with its data in the folder given, prints its addresses, waits to be killed.
const dataDir = process.argv[2] ?? '';
const stack = await startStack({
  dataDir,
  env: { LOG_LEVEL: 'silent' },
  stdio: 'pipe',
});
process.stdout.write(
  `${JSON.stringify([stack.url, stack.pets.url, stack.store.url])}\n`,
);
setInterval(() => undefined, 60_000);
