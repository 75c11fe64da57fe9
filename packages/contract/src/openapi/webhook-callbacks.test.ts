import type {
  CallbackObject,
  OperationObject,
  PathItemObject,
} from 'openapi3-ts/oas30';
import { describe, expect, it } from 'vitest';
import { contract } from '../contract.js';
import { DeliveryTypeSchema } from '../event-schemas.js';
import { generateOpenApi } from './generate-openapi.js';

const document = generateOpenApi(contract);

describe('the webhook callbacks', () => {
  it('describe every event type as a signed POST to the webhook url, with its payload', () => {
    const callbacks = document.paths['/v1/webhooks']?.post?.callbacks ?? {};
    expect(Object.keys(callbacks).sort()).toEqual(
      [...DeliveryTypeSchema.options].sort(),
    );
    for (const [type, callback] of Object.entries(callbacks)) {
      const item = (callback as CallbackObject)[
        '{$request.body#/url}'
      ] as PathItemObject;
      const post = item.post as OperationObject;
      const headers = (post.parameters ?? []).map(
        (parameter) => 'name' in parameter && parameter.name,
      );
      expect(headers, type).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
      const schema = JSON.stringify(post.requestBody);
      expect(schema, type).toMatch(
        /#\/components\/schemas\/(Order|Message|Pet|Inventory|WebhookTest)Event/,
      );
    }
  });

  it('names each payload as a component whose type lists only its own events', () => {
    const schemas = document.components?.schemas ?? {};
    expect(JSON.stringify(schemas.OrderEvent)).toContain('order.cancelled');
    expect(JSON.stringify(schemas.PetEvent)).not.toContain('order.created');
  });
});
