export {
  AccountSchema,
  ApiKeySchema,
  CreatedAccountSchema,
  CreatedApiKeySchema,
  NewAccountSchema,
  RoleSchema,
  type Account,
  type ApiKey,
  type CreatedAccount,
  type CreatedApiKey,
  type NewAccount,
  type Role,
} from './account-schemas.js';
export {
  CategorySchema,
  NewCategorySchema,
  type Category,
  type NewCategory,
} from './category-schemas.js';
export {
  createInternalClient,
  createPetstoreClient,
  type InternalClient,
  type InternalClientOptions,
  type PetstoreClient,
  type PetstoreClientOptions,
} from './clients.js';
export { contractOperations, type ContractOperation } from './contract-operations.js';
export { RouteTable, type Resolution } from './route-table.js';
export {
  deprecationHeaders,
  getPetDeprecatedAt,
  getPetDocumentation,
  type DeprecationPolicy,
} from './deprecation.js';
export {
  apiVersion,
  contract,
  internalContract,
  type Contract,
  type InternalContract,
} from './contract.js';
export {
  ErrorCodeSchema,
  ErrorDetailSchema,
  ErrorSchema,
  errorStatus,
  type ErrorBody,
  type ErrorCode,
  type ErrorDetail,
  type ErrorStatus,
} from './errors.js';
export {
  AccountIdSchema,
  ApiKeyIdSchema,
  IdParamSchema,
  IdSchema,
  EventIdSchema,
  MessageIdSchema,
  storedId,
  WebhookDeliveryIdSchema,
  WebhookIdSchema,
} from './ids.js';
export {
  customerEventTypes,
  InventoryEventSchema,
  MessageEventSchema,
  OrderEventSchema,
  PetEventSchema,
  RecordedEventSchema,
  WebhookEventSchema,
  WebhookEventTypeSchema,
  type RecordedEvent,
  type WebhookEvent,
  type WebhookEventType,
} from './event-schemas.js';
export {
  CreatedWebhookSchema,
  NewWebhookSchema,
  WebhookDeliverySchema,
  WebhookDeliveryStatusSchema,
  WebhookPatchSchema,
  WebhookSchema,
  WebhookSecretSchema,
  type CreatedWebhook,
  type NewWebhook,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookPatch,
  type WebhookSecret,
} from './webhook-schemas.js';
export {
  PetStatusEntrySchema,
  PetStatusUpdateSchema,
  type PetStatusEntry,
  type PetStatusUpdate,
} from './internal.js';
export {
  InventoryItemSchema,
  InventoryUpdateSchema,
  ListInventoryQuerySchema,
  type InventoryItem,
  type InventoryUpdate,
  type ListInventoryQuery,
} from './inventory-schemas.js';
export {
  MessageSchema,
  MessageStatusSchema,
  NewMessageSchema,
  type Message,
  type MessageStatus,
  type NewMessage,
} from './message-schemas.js';
export { HealthSchema, OpenApiDocumentSchema, type Health } from './meta-schemas.js';
export { routeMetadata, type OwningService, type RouteMetadata } from './metadata.js';
export {
  IdempotencyKeySchema,
  ListOrdersQuerySchema,
  NewOrderSchema,
  OrderSchema,
  OrderUpdateSchema,
  type ListOrdersQuery,
  type NewOrder,
  type Order,
  type OrderUpdate,
} from './order-schemas.js';
export { PageQuerySchema, type PageQuery } from './pagination.js';
export {
  ListPetsQuerySchema,
  NewPetSchema,
  PetPatchSchema,
  PetSchema,
  PetStatusSchema,
  PetsSchema,
  type ListPetsQuery,
  type NewPet,
  type Pet,
  type PetPatch,
  type PetStatus,
  type Pets,
} from './pet-schemas.js';
export { getPetSunset } from './pets.js';
export { generateOpenApi, type GenerateOpenApiOptions } from './openapi/generate-openapi.js';
export { objectShape, unwrapSchema } from './zod-unwrap.js';
