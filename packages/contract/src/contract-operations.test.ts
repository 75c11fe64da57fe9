import { initContract } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import { contractOperations } from './contract-operations.js';

const c = initContract();
const responses = { 200: c.type<null>() };

describe('contractOperations', () => {
  it('lists every route of a nested router in order, internal ones too, by key and top-level group', () => {
    const metadata = { service: 'pets', auth: 'key' } as const;
    const internal = { service: 'pets', auth: 'internal' } as const;
    const router = c.router({
      health: { method: 'GET', path: '/health', responses, metadata },
      things: {
        listThings: { method: 'GET', path: '/things', responses, metadata },
        admin: {
          purgeThings: {
            method: 'DELETE',
            path: '/things',
            responses,
            metadata: internal,
          },
        },
      },
    });

    expect(contractOperations(router)).toEqual([
      { name: 'health', group: 'health', route: router.health, metadata },
      {
        name: 'listThings',
        group: 'things',
        route: router.things.listThings,
        metadata,
      },
      {
        name: 'purgeThings',
        group: 'things',
        route: router.things.admin.purgeThings,
        metadata: internal,
      },
    ]);
  });

  it('refuses a route without metadata when its metadata is read', () => {
    const router = c.router({
      bare: { method: 'GET', path: '/bare', responses },
    });
    const [bare] = contractOperations(router);
    expect(() => bare?.metadata).toThrow(
      '[contract] GET /bare has no route metadata',
    );
  });
});
