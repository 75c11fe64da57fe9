export { createApp, type AppDeps } from './app.js';
export { loadGatewayConfig, type Config } from './config.js';
export { startGateway } from './start.js';
