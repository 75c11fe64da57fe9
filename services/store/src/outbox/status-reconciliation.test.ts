import { inTransaction, Outbox } from '@petstore/service-kit';
import { describe, expect } from 'vitest';
import { testInternalToken as internalToken } from '@petstore/testkit';
import { createPetsAdapter } from '../pets-service/pets-adapter.js';
import { InventoryRepository } from '../repositories/inventory-repository.js';
import { it, testLogger, type Stack } from '../test-support/stack.js';
import { statusReconciliation } from './status-reconciliation.js';

/** One pass of the reconciliation, as the running store would make it. */
async function onePass(stack: Stack): Promise<void> {
  const reconciliation = statusReconciliation({
    inventory: new InventoryRepository(stack.storeDb),
    // The running store's outbox relay pushes what the pass adds.
    outbox: new Outbox(stack.storeDb),
    pets: createPetsAdapter({
      baseUrls: [stack.pets.url],
      internalToken,
      timeoutMs: 2_000,
    }),
    transaction: (work) => inTransaction(stack.client, work),
    logger: testLogger('status-reconciliation'),
    intervalMs: 3_600_000,
  });
  reconciliation.start();
  await reconciliation.stop();
}

describe('the status reconciliation', () => {
  it('pushes again the status of a pet whose status pets holds differently', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(1);
    await expect.poll(() => stack.pets.statusOf(petId)).toBe('available');
    // Changed behind the store's back: an admin's edit of a pet whose status the store owns.
    const edit = await stack.pets.call('PATCH', `/v1/pets/${petId}`, {
      body: { status: 'sold' },
    });
    expect(edit.status).toBe(200);

    await onePass(stack);

    await expect
      .poll(() => stack.pets.statusOf(petId), { timeout: 10_000 })
      .toBe('available');
  });

  it('removes the stock of a pet that pets no longer has, and only its', async ({
    stack,
  }) => {
    const deleted = await stack.petWithStock(3);
    const kept = await stack.petWithStock(2);
    const removal = await stack.pets.call('DELETE', `/v1/pets/${deleted}`);
    expect(removal.status).toBe(204);

    await onePass(stack);

    expect(
      await stack.storeDb
        .collection<{ _id: number }>('inventory')
        .findOne({ _id: deleted }),
    ).toBeNull();
    expect(await stack.stockOf(kept)).toBe(2);
  });
});
