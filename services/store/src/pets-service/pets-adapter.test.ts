import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  freePort,
  startMongo,
  testInternalToken as internalToken,
  type MongoServer,
} from '@petstore/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPets, type PetsUnderTest } from '../test-support/stack.js';
import { createPetsAdapter, PetsUnavailableError } from './pets-adapter.js';

let mongo: MongoServer;
let pets: PetsUnderTest;
beforeAll(async () => {
  mongo = await startMongo();
  pets = await startTestPets(mongo);
});
afterAll(async () => {
  await pets?.stop();
  await mongo?.stop();
});

const adapterFor = (
  baseUrl: string | string[],
  token = internalToken,
  timeoutMs = 2_000,
) =>
  createPetsAdapter({
    baseUrls: [baseUrl].flat(),
    internalToken: token,
    timeoutMs,
  });

/** A port nothing listens on (it was free a moment ago). */
const deadUrl = async () => `http://127.0.0.1:${await freePort()}`;

/** A server that accepts connections and never answers. */
async function silentServer(): Promise<{ url: string; server: Server }> {
  const server = createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}

describe('the pets adapter', () => {
  it('tells whether pets knows a pet', async () => {
    const petId = await pets.createPet();
    const adapter = adapterFor(pets.url);
    expect(await adapter.petExists(petId)).toBe(true);
    expect(await adapter.petExists(987_654)).toBe(false);
  });

  it('pushes a status, and says when the pet is gone', async () => {
    const petId = await pets.createPet();
    const adapter = adapterFor(pets.url);
    expect(await adapter.pushStatus(petId, 'sold', 1)).toBe('delivered');
    expect(await pets.statusOf(petId)).toBe('sold');
    expect(await adapter.pushStatus(987_654, 'sold', 1)).toBe('pet_not_found');
  });

  it('reads the statuses pets holds, and goes on to the next replica when one is down', async () => {
    const petId = await pets.createPet();
    const adapter = adapterFor([await deadUrl(), pets.url]);
    for (let call = 0; call < 2; call++) {
      expect(await adapter.statuses([petId, 987_654])).toEqual([
        { petId, status: 'available' },
      ]);
    }
  });

  it('throws PetsUnavailableError (503 service_unavailable) when pets cannot be reached', async () => {
    const adapter = adapterFor(await deadUrl());
    const error = await adapter.petExists(1).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PetsUnavailableError);
    expect(error).toMatchObject({ code: 'service_unavailable', status: 503 });
    await expect(adapter.pushStatus(1, 'sold', 1)).rejects.toBeInstanceOf(
      PetsUnavailableError,
    );
  });

  it('gives up on a pets service that does not answer within the timeout', async () => {
    const silent = await silentServer();
    try {
      const adapter = adapterFor(silent.url, internalToken, 200);
      await expect(adapter.petExists(1)).rejects.toBeInstanceOf(
        PetsUnavailableError,
      );
    } finally {
      silent.server.closeAllConnections();
      await new Promise((resolve) => silent.server.close(resolve));
    }
  });

  it('counts an answer outside the contract’s 200/404 (a wrong token: 401) as unavailable', async () => {
    const adapter = adapterFor(
      pets.url,
      'not-the-internal-token-0123456789abcdef',
    );
    await expect(adapter.petExists(1)).rejects.toBeInstanceOf(
      PetsUnavailableError,
    );
  });
});
