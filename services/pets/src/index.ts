export { createApp, type AppDeps } from './app.js';
export { loadPetsConfig, type PetsConfig } from './config.js';
export { ensureIndexes } from './indexes.js';
export { petsDeps, startPets } from './start.js';
