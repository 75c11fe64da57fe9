import { contract, contractOperations } from '@petstore/contract';
import { describe, expect, it } from 'vitest';
import { gatewayContract } from './routes.js';

describe('the gateway routes', () => {
  it('is given a handler for every operation the gateway owns', () => {
    const owned = contractOperations(contract)
      .filter(({ metadata }) => metadata.service === 'gateway')
      .map(({ route }) => `${route.method} ${route.path}`);
    const implemented = contractOperations(gatewayContract).map(
      ({ route }) => `${route.method} ${route.path}`,
    );
    // /health and /ready are answered by service-kit's health middleware.
    expect([...implemented, 'GET /health', 'GET /ready'].sort()).toEqual(
      owned.sort(),
    );
  });
});
