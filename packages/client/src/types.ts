import type { components, operations } from './generated/openapi.js';

type Schemas = components['schemas'];
type OperationId = keyof operations;

/** A list parameter may also be given as one value: `{ status: 'available' }`. */
type OneOrMany<Q> = {
  [K in keyof Q]: NonNullable<Q[K]> extends readonly (infer E)[]
    ? E | readonly E[]
    : Q[K];
};

/** The query parameters of an operation, as the document states them. */
export type QueryOf<O extends OperationId> = OneOrMany<
  NonNullable<operations[O]['parameters']['query']>
>;

/** The JSON body of an operation, as the document states it. */
export type BodyOf<O extends OperationId> =
  NonNullable<operations[O]['requestBody']> extends {
    content: { 'application/json': infer B };
  }
    ? B
    : never;

/** A result with the `X-Request-Id` of the response that carried it (not enumerable). */
export type WithRequestId<T> = T & { readonly requestId: string };

/** What an operation that answers 204 resolves to. */
export interface Empty {
  readonly requestId: string;
}

export type Pet = Schemas['Pet'];
export type PetStatus = Schemas['PetStatus'];
export type NewPet = Schemas['NewPet'];
export type PetPatch = Schemas['PetPatch'];
export type Category = Schemas['Category'];
export type NewCategory = Schemas['NewCategory'];
export type Order = Schemas['Order'];
export type NewOrder = Schemas['NewOrder'];
export type OrderUpdate = Schemas['OrderUpdate'];
export type InventoryItem = Schemas['InventoryItem'];
export type InventoryUpdate = Schemas['InventoryUpdate'];
export type Account = Schemas['Account'];
export type NewAccount = Schemas['NewAccount'];
export type CreatedAccount = Schemas['CreatedAccount'];
export type ApiKey = Schemas['ApiKey'];
export type CreatedApiKey = Schemas['CreatedApiKey'];
export type Message = Schemas['Message'];
export type NewMessage = Schemas['NewMessage'];
export type Webhook = Schemas['Webhook'];
export type NewWebhook = Schemas['NewWebhook'];
export type WebhookPatch = Schemas['WebhookPatch'];
export type CreatedWebhook = Schemas['CreatedWebhook'];
export type WebhookSecret = Schemas['WebhookSecret'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookEventType = Schemas['WebhookEventType'];

/** The body of every error response. */
export type ErrorBody = Schemas['Error'];
/** Every `code` an error can carry: the closed list of the document's Error schema. */
export type ErrorCode = ErrorBody['code'];
export type ErrorDetail = NonNullable<ErrorBody['details']>[number];

/**
 * An event delivered to a webhook: one of the document's `*Event` schemas, told apart by
 * `type` (`if (event.type === 'order.created') event.data` is an Order).
 */
export type WebhookEvent = Schemas[Extract<keyof Schemas, `${string}Event`>];

export type ListPetsQuery = QueryOf<'listPets'>;
export type ListCategoriesQuery = QueryOf<'listCategories'>;
export type ListOrdersQuery = QueryOf<'listOrders'>;
export type ListInventoryQuery = QueryOf<'listInventory'>;
export type ListWebhooksQuery = QueryOf<'listWebhooks'>;
export type ListKeysQuery = QueryOf<'listKeys'>;
export type ListWebhookDeliveriesQuery = QueryOf<'listWebhookDeliveries'>;
