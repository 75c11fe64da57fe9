// Test support: calling the gateway's webhook operations as a client would.
import type { CreatedWebhook, WebhookEventType } from '@petstore/contract';
import { callHttp, type HttpAnswer } from '@petstore/testkit';
import { bearer } from './gateway-harness.js';

/** A public address: accepted without DNS whether or not private URLs are allowed. */
export const PUBLIC_URL = 'https://93.184.216.34/petstore-hook';

/** `method path` with the key and a JSON body, if any; the body answered, parsed when JSON. */
export function call<T = unknown>(
  baseUrl: string,
  apiKey: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<HttpAnswer<T>> {
  return callHttp<T>(baseUrl, method, path, { body, headers: bearer(apiKey) });
}

/** Creates a webhook (by default for `order.created` at `PUBLIC_URL`); throws unless 201. */
export async function createWebhook(
  baseUrl: string,
  apiKey: string,
  fields: { url?: string; events?: WebhookEventType[]; description?: string } = {},
): Promise<CreatedWebhook> {
  const answer = await call<CreatedWebhook>(baseUrl, apiKey, 'POST', '/v1/webhooks', {
    url: PUBLIC_URL,
    events: ['order.created'],
    ...fields,
  });
  if (answer.status !== 201) {
    throw new Error(`creating a webhook answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  return answer.body;
}
