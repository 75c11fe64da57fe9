import type { EmbeddedDatabase } from '../mongo-server.js';
import { startEmbedded } from '../start-mongo.js';

// Starts the embedded database named by the first argument in the folder given as the second,
// says where it answers, and waits to be killed.
const [kind, dataDir] = process.argv.slice(2) as [EmbeddedDatabase, string];
const server = await startEmbedded(kind, { dataDir });
process.stdout.write(`${server.uri}\n`);
setInterval(() => undefined, 60_000);
