import { startMongod } from '../mongod.js';

// Starts the embedded database, in the folder given as the first argument if any (else a
// temporary one), says where it answers, and waits to be killed.
const [dataDir] = process.argv.slice(2);
const server = await startMongod({ dataDir });
process.stdout.write(`${server.uri}\n`);
setInterval(() => undefined, 60_000);
