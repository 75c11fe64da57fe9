import { loadOrExit } from '@petstore/service-kit';
import { loadPetsConfig } from './config.js';
import { startPets } from './start.js';

const config = loadOrExit(() => loadPetsConfig(process.env));
await startPets(config, { signals: ['SIGTERM', 'SIGINT'] });
