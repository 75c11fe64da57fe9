// A service process for the SIGTERM test: GET /slow answers only once the process has been
// sent SIGTERM. Progress goes to stdout as JSON lines.
import { createLogger } from '../logger.js';
import { connectMongo } from '../mongo.js';
import { createService } from '../create-service.js';
import { runService } from '../run-service.js';
import { route } from './test-service.js';

function report(event: Record<string, unknown>) {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

const mongoUri = process.env.FIXTURE_MONGODB_URI;
if (!mongoUri)
  throw new Error('[sigterm-fixture] FIXTURE_MONGODB_URI is not set');

const terminated = new Promise((resolve) => process.once('SIGTERM', resolve));
const logger = createLogger({ name: 'fixture', level: 'silent' });
const client = await connectMongo(mongoUri, { appName: 'sigterm-fixture' });
client.on('topologyClosed', () => {
  report({ event: 'mongo closed' });
});

const app = createService({
  name: 'fixture',
  logger,
  routers: [
    route('GET', '/slow', async (ctx) => {
      report({ event: 'slow started' });
      await terminated;
      ctx.body = { done: true };
    }),
  ],
});
const running = await runService({
  app,
  host: '127.0.0.1',
  port: 0,
  logger,
  onShutdown: [() => client.close()],
});
report({ event: 'listening', url: running.url });
