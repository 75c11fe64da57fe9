import { startMongoJavaServer } from '../mongo-java-server.js';

// Starts the embedded database in the folder given as the first argument, says where it
// answers, and waits to be killed.
const [dataDir] = process.argv.slice(2) as [string];
const server = await startMongoJavaServer({ dataDir });
process.stdout.write(`${server.uri}\n`);
setInterval(() => undefined, 60_000);
