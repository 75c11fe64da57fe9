export { createClient, type PetstoreClient } from './client.js';
export type { ApiPromise, WithResponse } from './api-promise.js';
export type { Logger } from './logger.js';
export type {
  ClientOptions,
  HeadersLike,
  RequestOptions,
} from './request-sender.js';
export type { List, Page } from './auto-pagination.js';
export {
  PetstoreConnectionError,
  PetstoreError,
  PetstoreTimeoutError,
  PetstoreWebhookError,
} from './errors.js';
export type {
  ConstructEventOptions,
  WebhookBody,
  WebhookHeaders,
} from './webhooks.js';
export type { Accounts } from './resources/accounts.js';
export type { Categories } from './resources/categories.js';
export type { Inventory } from './resources/inventory.js';
export type { Messages } from './resources/messages.js';
export type { Orders } from './resources/orders.js';
export type { Pets } from './resources/pets.js';
export type { Webhooks } from './resources/webhooks.js';
export type {
  Account,
  ApiKey,
  Category,
  CreatedAccount,
  CreatedApiKey,
  CreatedWebhook,
  Empty,
  ErrorBody,
  ErrorCode,
  ErrorDetail,
  InventoryItem,
  InventoryUpdate,
  ListCategoriesQuery,
  ListInventoryQuery,
  ListKeysQuery,
  ListOrdersQuery,
  ListPetsQuery,
  ListWebhookDeliveriesQuery,
  ListWebhooksQuery,
  Message,
  NewAccount,
  NewCategory,
  NewMessage,
  NewOrder,
  NewPet,
  NewWebhook,
  Order,
  OrderUpdate,
  Pet,
  PetPatch,
  PetStatus,
  Webhook,
  WebhookDelivery,
  WebhookEvent,
  WebhookEventType,
  WebhookPatch,
  WebhookSecret,
  WithRequestId,
} from './types.js';
