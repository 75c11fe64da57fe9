import { loadOrExit } from '@petstore/service-kit';
import { loadStoreConfig } from './config.js';
import { startStore } from './start.js';

const config = loadOrExit(() => loadStoreConfig(process.env));
await startStore(config, { signals: ['SIGTERM', 'SIGINT'] });
