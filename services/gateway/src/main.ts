import { loadOrExit } from '@petstore/service-kit';
import { loadGatewayConfig } from './config.js';
import { startGateway } from './start.js';

const config = loadOrExit(() => loadGatewayConfig(process.env));
await startGateway(config, { signals: ['SIGTERM', 'SIGINT'] });
