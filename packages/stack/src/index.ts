export { startStack, type ServiceName, type Stack } from './start-stack.js';
export { databaseCommands, ServiceProcess } from './service-process.js';
