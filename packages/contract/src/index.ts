export * from './account-schemas.js';
export * from './category-schemas.js';
export * from './clients.js';
export * from './contract-operations.js';
export * from './route-table.js';
export * from './deprecation.js';
export * from './contract.js';
export * from './errors.js';
export * from './ids.js';
export * from './event-schemas.js';
export * from './webhook-schemas.js';
export {
  PetStatusEntrySchema,
  PetStatusUpdateSchema,
  type PetStatusEntry,
  type PetStatusUpdate,
} from './internal.js';
export * from './inventory-schemas.js';
export * from './message-schemas.js';
export * from './meta-schemas.js';
export * from './metadata.js';
export * from './order-schemas.js';
export * from './pagination.js';
export * from './pet-schemas.js';
export { getPetSunset } from './pets.js';
export { generateOpenApi, type GenerateOpenApiOptions } from './openapi/generate-openapi.js';
export { objectShape, unwrapSchema } from './zod-unwrap.js';
