import {
  contract,
  contractOperations,
  internalContract,
} from '@petstore/contract';
import { describe, expect, it } from 'vitest';
import { gatewayRouter } from './gateway-router.js';

const router = gatewayRouter();

/** A concrete path for a contract path: `/v1/pets/:petId` → `/v1/pets/1`. */
const concrete = (path: string) => path.replace(/:(\w+)/g, '1');

/** The name of the operation that answers, the first route matching path and method. */
const answering = (method: string, path: string) =>
  router
    .match(path, method)
    .pathAndMethod.find(({ methods }) => methods.length > 0)?.name;

describe('the gateway router', () => {
  it('routes every public operation to itself', () => {
    const operations = contractOperations(contract);
    expect(operations.length).toBeGreaterThan(20);
    for (const { name, route } of operations) {
      expect(
        answering(route.method, concrete(route.path)),
        `${route.method} ${route.path}`,
      ).toBe(name);
    }
    expect(answering('HEAD', '/v1/pets/3')).toBe('getPet');
    expect(answering('HEAD', '/v2/pets/3')).toBe('getPet');
    expect(operations.filter(({ version }) => version === 'v2')).toHaveLength(
      operations.filter(({ version }) => version === 'v1').length,
    );
  });

  it('routes the internal operations the gateway answers, never those of the services', () => {
    expect(answering('POST', '/internal/events')).toBe('recordEvents');
    for (const { route, metadata } of contractOperations(internalContract)) {
      if (metadata.service === 'gateway') continue;
      expect(
        router.match(concrete(route.path), route.method).path,
        route.path,
      ).toEqual([]);
    }
  });
});
