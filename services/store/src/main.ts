import { loadStoreConfig } from './config.js';
import { startStore } from './start.js';

await startStore(loadStoreConfig(process.env), { signals: ['SIGTERM', 'SIGINT'] });
