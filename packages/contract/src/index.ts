export * from './accounts.js';
export * from './api-version.js';
export * from './categories.js';
export * from './clients.js';
export * from './contract-operations.js';
export * from './deprecation.js';
export * from './contract.js';
export * from './errors.js';
export * from './ids.js';
export * from './event-schemas.js';
export * from './webhooks.js';
export {
  PetStatusEntrySchema,
  PetStatusUpdateSchema,
  type PetStatusEntry,
} from './internal.js';
export * from './messages.js';
export * from './meta.js';
export * from './store.js';
export type { VersionedRouter } from './versions.js';
export * from './pagination.js';
export * from './pets.js';
export {
  generateOpenApi,
  type GenerateOpenApiOptions,
} from './openapi/generate-openapi.js';
export {
  documentOperations,
  type DocumentOperation,
} from './openapi/document-operations.js';
export { objectShape, unwrapSchema } from './zod-unwrap.js';
