import type { TagObject } from 'openapi3-ts/oas30';

/** The document's tags, in navigation order. */
export const tags: TagObject[] = [
  { name: 'Pets', description: 'The catalogue: pets and the categories they belong to.' },
  {
    name: 'Store',
    description: 'Orders for pets and the stock they draw on; stock drives a pet’s status.',
  },
  { name: 'Accounts', description: 'Sign-up, the current account and its API keys.' },
  { name: 'Messages', description: 'Queue a message and follow its delivery.' },
  {
    name: 'Webhooks',
    description:
      'Signed event deliveries (Standard Webhooks): subscriptions, their secrets and their delivery log.',
  },
  { name: 'Meta', description: 'Health, readiness, this document and its reference page.' },
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

/** The tag of a top-level router key of the contract. */
export function tagOf(group: string): string {
  const tag = tagOfGroup[group];
  if (tag === undefined) {
    throw new Error(`[openapi] no tag for the contract's "${group}" routes`);
  }
  return tag;
}
