import { initContract } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import { documentedOperations } from './generate-openapi.js';

const c = initContract();
const responses = { 200: c.type<null>() };
const metadata = { service: 'pets', auth: 'key' } as const;

describe('documentedOperations', () => {
  it('leaves the internal routes out', () => {
    const router = c.router({
      things: {
        listThings: { method: 'GET', path: '/things', responses, metadata },
        purgeThings: {
          method: 'DELETE',
          path: '/internal/things',
          responses,
          metadata: { service: 'pets', auth: 'internal' },
        },
      },
    });
    expect(documentedOperations(router).map(({ name }) => name)).toEqual([
      'listThings',
    ]);
  });

  it('refuses two routes with one key, which would share an operationId', () => {
    const router = c.router({
      things: {
        getThing: { method: 'GET', path: '/things/:id', responses, metadata },
      },
      others: {
        getThing: { method: 'GET', path: '/others/:id', responses, metadata },
      },
    });
    expect(() => documentedOperations(router)).toThrow(
      '[openapi] two routes share the operationId getThing',
    );
  });
});
