export { createApp, type AppDeps } from './app.js';
export {
  loadGatewayConfig,
  type Config,
  type Config as GatewayConfig,
} from './config.js';
export {
  startGateway,
  type RunningGateway,
  type StartGatewayOptions,
} from './start.js';
