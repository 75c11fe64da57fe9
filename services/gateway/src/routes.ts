import { contract } from '@petstore/contract';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import { accountRoutes, type AccountRoutesDeps } from './accounts/account-routes.js';
import { docsContract, docsRoutes, type DocsRoutesDeps } from './docs/docs-page.js';
import { messageRoutes, type MessageRoutesDeps } from './messages/message-routes.js';
import { webhookRoutes, type WebhookRoutesDeps } from './webhooks/webhook-routes.js';

/** The operations the gateway serves itself (route metadata `service: 'gateway'`). */
export const gatewayContract = {
  accounts: contract.accounts,
  messages: contract.messages,
  webhooks: contract.webhooks,
  meta: docsContract,
};

export type GatewayRoutesDeps = AccountRoutesDeps &
  MessageRoutesDeps &
  WebhookRoutesDeps &
  DocsRoutesDeps;

export function gatewayRoutes(
  deps: GatewayRoutesDeps,
): RouterImplementation<typeof gatewayContract> {
  return {
    accounts: accountRoutes(deps),
    messages: messageRoutes(deps),
    webhooks: webhookRoutes(deps),
    meta: docsRoutes(deps),
  };
}
