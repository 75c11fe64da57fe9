import { loadGatewayConfig } from './config.js';
import { startGateway } from './start.js';

const config = loadGatewayConfig(process.env);
await startGateway(config, { signals: ['SIGTERM', 'SIGINT'] });
