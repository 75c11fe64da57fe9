export { loadPetsConfig } from './config.js';
export { startPets } from './start.js';
