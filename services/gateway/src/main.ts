import { loadGatewayConfig, type Config } from './config.js';
import { startGateway } from './start.js';

let config: Config;
try {
  config = loadGatewayConfig(process.env);
} catch (error) {
  // The message names every bad variable (never a value); a stack trace would add nothing.
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
await startGateway(config, { signals: ['SIGTERM', 'SIGINT'] });
