import { describe, expect } from 'vitest';
import { createInventory } from '../inventory/inventory.js';
import { createPetCheck } from '../pets-service/pet-check.js';
import { createPetsAdapter } from '../pets-service/pets-adapter.js';
import { createRepository } from '../repository.js';
import { call, internalToken, it, testLogger } from '../test-support/stack.js';
import { createStatusChanges } from './status-changes.js';
import { statusReconciliation } from './status-reconciliation.js';

describe('the status reconciliation', () => {
  it('pushes again the status of a pet whose status pets holds differently', async ({ stack }) => {
    const petId = await stack.petWithStock(1);
    await expect.poll(() => stack.pets.statusOf(petId)).toBe('available');
    // Changed behind the store's back: an admin's edit of a pet whose status the store owns.
    const edit = await call(stack.pets.url, 'PATCH', `/v1/pets/${petId}`, {
      body: { status: 'sold' },
    });
    expect(edit.status).toBe(200);

    const repository = createRepository(stack.storeDb);
    const pets = createPetsAdapter({ baseUrls: [stack.pets.url], internalToken, timeoutMs: 2_000 });
    const reconciliation = statusReconciliation({
      inventory: createInventory({
        repository,
        petCheck: createPetCheck({ pets, inventory: repository.inventory, confirmedForMs: 0 }),
        statusChanges: createStatusChanges(
          repository,
          () => new Date(),
          () => {},
        ),
        now: () => new Date(),
      }),
      pets,
      // The running store's outbox worker pushes what the pass records.
      statusChanges: createStatusChanges(
        repository,
        () => new Date(),
        () => {},
      ),
      logger: testLogger('status-reconciliation'),
      intervalMs: 3_600_000,
    });
    reconciliation.start();
    await reconciliation.stop();

    await expect.poll(() => stack.pets.statusOf(petId), { timeout: 10_000 }).toBe('available');
  });
});
