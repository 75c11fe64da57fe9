import {
  createInternalClient,
  type Pet,
  type PetStatus,
  type RecordedEvent,
} from '@petstore/contract';
import type { OutboxMessage } from '@petstore/service-kit';
import { EventReceiver, testInternalToken } from '@petstore/testkit';
import { test } from '@petstore/testkit/vitest';
import { describe, expect } from 'vitest';
import { startTestPets, type ServedPets } from './test-support/pets-service.js';
import { seedCategory, seedPet } from './test-support/seed.js';

/**
 * `pets`, started as in production on a fresh database, handing its events to `gateway`, which
 * refuses them (503) until a test lets them through: they stay in the outbox, to be read.
 */
const it = test.extend<{
  gateway: EventReceiver<RecordedEvent>;
  pets: ServedPets;
}>({
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from it
  gateway: async ({}, use) => {
    await using gateway = await new EventReceiver<RecordedEvent>().start();
    gateway.status = 503;
    await use(gateway);
  },
  pets: async ({ mongo, gateway }, use) => {
    await using pets = await startTestPets(mongo, {
      eventRelay: true,
      env: { GATEWAY_URL: gateway.url, EVENT_RELAY_INTERVAL_MS: '50' },
    });
    await use(pets);
  },
});

/** The events about the pet that the outbox holds, in the order they were written. */
async function pendingIn(
  pets: ServedPets,
  petId: number,
): Promise<RecordedEvent[]> {
  const messages = await pets.db
    .collection<OutboxMessage<RecordedEvent>>('outbox')
    .find({ 'payload.data.id': petId }, { sort: { _id: 1 } })
    .toArray();
  return messages.map(({ payload }) => payload);
}

/** A pet in a category of its own, as an admin made it. */
async function aPet(
  pets: ServedPets,
  status: PetStatus = 'available',
): Promise<Pet> {
  const category = await seedCategory(pets, `Dogs ${Math.random()}`);
  return seedPet(pets, { name: 'Rex', categoryId: category.id, status });
}

function push(
  pets: ServedPets,
  petId: number,
  status: PetStatus,
  version: number,
) {
  return createInternalClient({
    baseUrl: pets.url,
    internalToken: testInternalToken,
  }).pets.setPetStatus({
    params: { petId: String(petId) },
    body: { status, version },
  });
}

/**
 * The `pet.status_changed` events the outbox holds about the pet, shown as the pet: then, once
 * the gateway takes them, each sent as written and deleted from the outbox.
 */
async function expectChanges(
  pets: ServedPets,
  gateway: EventReceiver<RecordedEvent>,
  petId: number,
  shown: Pet[],
) {
  const events = await pendingIn(pets, petId);
  expect(events).toEqual(
    shown.map((data) => ({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/) as string,
      type: 'pet.status_changed',
      timestamp: expect.stringMatching(/Z$/) as string,
      data,
    })),
  );
  gateway.status = 202;
  await expect.poll(() => pendingIn(pets, petId)).toEqual([]);
  const recorded = gateway.accepted().filter(({ data }) => data.id === petId);
  expect(recorded).toEqual(expect.arrayContaining(events));
  expect(recorded).toHaveLength(events.length);
}

describe('pet.status_changed', () => {
  it('is written by the store push that changes the status, with the pet as it answered', async ({
    pets,
    gateway,
  }) => {
    const rex = await aPet(pets);
    const pushed = await push(pets, rex.id, 'pending', 1);
    expect(pushed.body).toEqual({ ...rex, status: 'pending' });
    await expectChanges(pets, gateway, rex.id, [{ ...rex, status: 'pending' }]);
  });

  it("is written by an admin's PUT and PATCH that change the status", async ({
    pets,
    gateway,
  }) => {
    const rex = await aPet(pets);
    const path = `/v1/pets/${rex.id}`;
    const patched = await pets.call('PATCH', path, {
      body: { status: 'sold', name: 'Max' },
    });
    expect(patched.body).toEqual({ ...rex, name: 'Max', status: 'sold' });
    const replaced = await pets.call('PUT', path, {
      body: { name: 'Rex', categoryId: rex.categoryId },
    });
    expect(replaced.body).toEqual(rex);
    await expectChanges(pets, gateway, rex.id, [
      patched.body as Pet,
      replaced.body as Pet,
    ]);
  });

  it('shows the pet as the change left it, whatever came after', async ({
    pets,
    gateway,
  }) => {
    const rex = await aPet(pets);
    await push(pets, rex.id, 'sold', 1);
    await pets.call('PATCH', `/v1/pets/${rex.id}`, {
      body: { name: 'Renamed' },
    });
    await expectChanges(pets, gateway, rex.id, [{ ...rex, status: 'sold' }]);
  });

  it('is not written when the status stays the same', async ({
    pets,
    gateway,
  }) => {
    const rex = await aPet(pets, 'pending');
    const path = `/v1/pets/${rex.id}`;
    expect((await push(pets, rex.id, 'pending', 1)).status).toBe(200);
    expect(
      (await pets.call('PATCH', path, { body: { status: 'pending' } })).status,
    ).toBe(200);
    expect(
      (await pets.call('PATCH', path, { body: { name: 'Max' } })).status,
    ).toBe(200);
    const replaced = await pets.call('PUT', path, {
      body: { name: 'Rex', categoryId: rex.categoryId, status: 'pending' },
    });
    expect(replaced.body).toEqual(rex);
    // A delayed push of an older version changes nothing.
    expect((await push(pets, rex.id, 'sold', 1)).body).toEqual(rex);
    expect(await pendingIn(pets, rex.id)).toEqual([]);
    gateway.status = 202;
    await push(pets, rex.id, 'sold', 2);
    await expect
      .poll(() => gateway.accepted().filter(({ data }) => data.id === rex.id))
      .toEqual([expect.objectContaining({ data: { ...rex, status: 'sold' } })]);
    expect(gateway.batches.flatMap(({ events }) => events)).toHaveLength(1);
  });

  it('is never written when the change is refused', async ({ pets }) => {
    const rex = await aPet(pets);
    const refused = await pets.call('PATCH', `/v1/pets/${rex.id}`, {
      body: { status: 'sold', categoryId: 999 },
    });
    expect(refused.status).toBe(422);
    expect(await pendingIn(pets, rex.id)).toEqual([]);
    expect((await pets.call('GET', `/v1/pets/${rex.id}`)).body).toEqual(rex);
  });

  it('is written once per change when pushes and admins race', async ({
    pets,
    gateway,
  }) => {
    const rex = await aPet(pets);
    const statuses: PetStatus[] = ['pending', 'sold', 'available'];
    await Promise.all(
      Array.from({ length: 12 }, (_, n) => {
        const status = statuses[n % 3] ?? 'sold';
        return n % 2 === 0
          ? push(pets, rex.id, status, n + 1)
          : pets.call('PATCH', `/v1/pets/${rex.id}`, { body: { status } });
      }),
    );
    const events = await pendingIn(pets, rex.id);
    // In the order the changes committed: each a real change from the status before it.
    const shown = [
      rex.status,
      ...events.map((event) => (event.data as Pet).status),
    ];
    for (let n = 1; n < shown.length; n++)
      expect(shown[n]).not.toBe(shown[n - 1]);
    const now = ((await pets.call('GET', `/v1/pets/${rex.id}`)).body as Pet)
      .status;
    expect(shown.at(-1)).toBe(now);
    gateway.status = 202;
    await expect.poll(() => pendingIn(pets, rex.id)).toEqual([]);
  });

  it('reaches the gateway even when the pet is deleted before it is sent', async ({
    pets,
    gateway,
  }) => {
    const rex = await aPet(pets);
    await push(pets, rex.id, 'sold', 1);
    const path = `/v1/pets/${rex.id}`;
    expect((await pets.call('DELETE', path)).status).toBe(204);
    expect((await pets.call('GET', path)).status).toBe(404);
    expect(await pendingIn(pets, rex.id)).toHaveLength(1);

    gateway.status = 202;
    await expect
      .poll(() => gateway.accepted().filter(({ data }) => data.id === rex.id))
      .toEqual([
        expect.objectContaining({
          type: 'pet.status_changed',
          data: { ...rex, status: 'sold' },
        }),
      ]);
  });
});
