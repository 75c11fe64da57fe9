import { initContract } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import { contractOperations } from './contract-operations.js';
import { contract, internalContract } from './contract.js';
import { RouteTable } from './route-table.js';

const table = new RouteTable(contract);

/** A concrete path for a contract path: `/v1/pets/:petId` → `/v1/pets/1`. */
function concrete(path: string): string {
  return path.replace(/:(\w+)/g, (_, name: string) =>
    name === 'keyId' ? 'key_abc' : name === 'messageId' ? 'msg_abc' : '1',
  );
}

describe('RouteTable', () => {
  it('resolves every operation of the contract to itself and its owning service', () => {
    const operations = contractOperations(contract);
    expect(operations.length).toBeGreaterThan(20);
    for (const { name, route, metadata } of operations) {
      const resolution = table.resolve(route.method, concrete(route.path));
      expect(resolution, `${route.method} ${route.path}`).toMatchObject({
        kind: 'operation',
        operation: { name, metadata: { service: metadata.service } },
      });
    }
  });

  it('sends pets and categories to pets, orders and inventory to store', () => {
    const serviceOf = (method: string, path: string) => {
      const resolution = table.resolve(method, path);
      return resolution.kind === 'operation' ? resolution.operation.metadata.service : undefined;
    };
    expect(serviceOf('GET', '/v1/pets')).toBe('pets');
    expect(serviceOf('DELETE', '/v1/categories/3')).toBe('pets');
    expect(serviceOf('POST', '/v1/store/orders')).toBe('store');
    expect(serviceOf('PUT', '/v1/store/inventory/3')).toBe('store');
    expect(serviceOf('GET', '/v1/accounts/me')).toBe('gateway');
    expect(serviceOf('HEAD', '/v1/pets/3')).toBe('pets');
  });

  it('never routes the internal contract', () => {
    for (const { route } of contractOperations(internalContract)) {
      expect(table.resolve(route.method, concrete(route.path)).kind).toBe('not_found');
    }
  });

  it('reads path parameters, decoded', () => {
    expect(table.resolve('GET', '/v1/pets/4%32')).toMatchObject({
      kind: 'operation',
      operation: { name: 'getPet' },
      params: { petId: '42' },
    });
  });

  it('tells an unknown path from a known path with another method', () => {
    expect(table.resolve('GET', '/v1/unicorns')).toEqual({ kind: 'not_found' });
    expect(table.resolve('GET', '/v1/pets/')).toEqual({ kind: 'not_found' });
    expect(table.resolve('GET', '/v1/pets/1/2')).toEqual({ kind: 'not_found' });
    expect(table.resolve('POST', '/v1/store/orders/1')).toEqual({
      kind: 'method_not_allowed',
      allow: ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH'],
    });
  });

  it('matches a route ending in an optional parameter with and without it', () => {
    const c = initContract();
    const responses = { 200: c.type<null>() };
    const metadata = { service: 'pets', auth: 'key' } as const;
    const things = new RouteTable(
      c.router({
        listOrGet: { method: 'GET', path: '/v1/things/:id?', responses, metadata },
        deleteThing: { method: 'DELETE', path: '/v1/things/:id', responses, metadata },
      }),
    );
    expect(things.resolve('GET', '/v1/things')).toMatchObject({
      kind: 'operation',
      operation: { name: 'listOrGet' },
    });
    expect(things.resolve('GET', '/v1/things/7')).toMatchObject({
      kind: 'operation',
      operation: { name: 'listOrGet' },
    });
    expect(things.resolve('DELETE', '/v1/things')).toEqual({
      kind: 'method_not_allowed',
      allow: ['GET', 'HEAD', 'OPTIONS'],
    });
    expect(things.resolve('GET', '/v1/things/')).toEqual({ kind: 'not_found' });
    expect(things.resolve('GET', '/v1/things/7/8')).toEqual({ kind: 'not_found' });
  });
});
