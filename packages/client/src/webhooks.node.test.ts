import { describe, expect, it } from 'vitest';
import {
  body,
  delivery,
  event,
  secret,
} from './test-support/webhook-delivery.js';
import { constructEvent } from './webhooks.js';

// Node only: Buffer is Node's; browsers have none.
describe('constructEvent on Node', () => {
  it('reads the body as a Node Buffer', async () => {
    const headers = await delivery();

    await expect(
      constructEvent(Buffer.from(body), headers, secret),
    ).resolves.toEqual(event);
  });
});
