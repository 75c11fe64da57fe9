export {
  startStack,
  type ServiceName,
  type Stack,
  type StackDatabase,
} from './start-stack.js';
export type { StackOptions } from './start-stack.js';
export {
  ServiceProcess,
  type ServiceProcessOptions,
} from './service-process.js';
export { generateApiKey, type StackSecrets } from './secrets.js';
export { databaseCommands } from './database-commands.js';
