import { loadPetsConfig } from './config.js';
import { startPets } from './start.js';

try {
  await startPets(loadPetsConfig(process.env));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
