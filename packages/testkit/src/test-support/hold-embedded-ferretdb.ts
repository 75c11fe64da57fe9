import { startEmbeddedFerretdb } from '../embedded-ferretdb.js';

// Starts the embedded database in the folder given as argument, says so, and waits to be killed.
const dataDir = process.argv[2];
const server = await startEmbeddedFerretdb({ dataDir });
process.stdout.write(`${server.uri}\n`);
setInterval(() => undefined, 60_000);
