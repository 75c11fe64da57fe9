import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { SecuritySchemeObject, TagObject } from 'openapi3-ts/oas30';
import { currentVersion } from '../api-version.js';
import {
  type ContractOperation,
  operationIdOf,
  toOpenApiPath,
} from '../contract-operations.js';
import { codeSamples } from './code-samples/code-samples.js';
import { operationRequest } from './operation-request.js';
import { olderTag, operationBadges } from './renderer-extensions.js';
import { operationResponses } from './responses.js';
import { webhookCallbacks } from './webhook-callbacks.js';

/** The OpenAPI operation of a contract route; its links point at others of `operations`. */
export function operationConfig(
  operation: ContractOperation,
  operations: ContractOperation[],
  serverUrl: string,
): RouteConfig {
  const { route, metadata, name } = operation;
  const operationId = operationIdOf(operation);
  const description = [
    route.description,
    metadata.role === 'admin' &&
      'Needs an admin key; a customer key gets 403 `forbidden`.',
    metadata.sunset &&
      `Deprecated: answers 410 \`gone\` from ${metadata.sunset} on.`,
  ]
    .filter(Boolean)
    .join('\n\n');
  const badges = operationBadges(metadata);
  return {
    method: route.method.toLowerCase() as RouteConfig['method'],
    path: toOpenApiPath(route.path),
    operationId,
    tags: [tagOf(operation)],
    summary: route.summary,
    description: description || undefined,
    deprecated: route.deprecated,
    // The bearer key where an operation needs one, else `[]`: public, not forgotten.
    security: metadata.auth === 'key' ? [{ [bearerAuthName]: [] }] : [],
    request: operationRequest(route),
    responses: operationResponses(operation, operations),
    'x-stability': metadata.stability,
    'x-sunset': metadata.sunset,
    'x-hideTryItPanel': metadata.hideTryItPanel,
    ...(badges.length === 0 ? {} : { 'x-badges': badges }),
    'x-codeSamples': codeSamples(operation, serverUrl),
    ...(name === 'createWebhook'
      ? { callbacks: webhookCallbacks(operationId.slice(name.length)) }
      : {}),
  };
}

export const bearerAuthName = 'bearerAuth';

export const bearerAuth: SecuritySchemeObject = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'API key',
  description:
    'An API key (`psk_…`), shown once when an account or a key is created: ' +
    '`Authorization: Bearer <API key>`.',
};

/** The tags of the current version's operations and the meta endpoints, in navigation order. */
const currentTags: TagObject[] = [
  {
    name: 'Pets',
    description: 'The catalogue: pets and the categories they belong to.',
  },
  {
    name: 'Store',
    description:
      'Orders for pets and the stock they draw on; stock drives a pet’s status.',
  },
  {
    name: 'Accounts',
    description: 'Sign-up, the current account and its API keys.',
  },
  { name: 'Messages', description: 'Queue a message and follow its delivery.' },
  {
    name: 'Webhooks',
    description:
      'Signed event deliveries (Standard Webhooks): subscriptions, their secrets and their delivery log.',
  },
  {
    name: 'Meta',
    description: 'Health, readiness, this document and its reference page.',
  },
];

/** In navigation order: the current version's, then the resources' again for `/v1`. */
export const tags: TagObject[] = [
  ...currentTags,
  ...currentTags
    .filter(({ name }) => name !== 'Meta')
    .map(({ name, description }) => ({
      name: olderTag(name, 'v1'),
      description: `${description} The same operations at \`/v1\`, the previous version; \`GET /v1/pets/{petId}\` is deprecated for \`GET /v2/pets/{petId}\`.`,
    })),
];

const tagOfGroup: Record<string, string> = {
  pets: 'Pets',
  categories: 'Pets',
  orders: 'Store',
  inventory: 'Store',
  accounts: 'Accounts',
  messages: 'Messages',
  webhooks: 'Webhooks',
  meta: 'Meta',
};

/** The tag of an operation: its resource's, marked with its version when that is not current. */
function tagOf({ group, version }: ContractOperation): string {
  const tag = tagOfGroup[group];
  if (tag === undefined)
    throw new Error(`[openapi] no tag for the contract's "${group}" routes`);
  return version === undefined || version === currentVersion
    ? tag
    : olderTag(tag, version);
}
