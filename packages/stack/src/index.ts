export { startStack, type ServiceName, type Stack } from './start-stack.js';
export { ServiceProcess } from './service-process.js';
export { databaseCommands } from './database-commands.js';
