export { loadStoreConfig, type StoreConfig } from './config.js';
export { startStore, type StartStoreOptions } from './start.js';
