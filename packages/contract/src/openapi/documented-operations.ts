import type { AppRouter } from '@ts-rest/core';
import { contractOperations, type ContractOperation } from '../contract-operations.js';

/**
 * The routes the document shows: all but the internal ones. Route keys become operationIds,
 * which must be unique, so two routes sharing a key fail here.
 */
export function documentedOperations(router: AppRouter): ContractOperation[] {
  const operations = contractOperations(router);
  const seen = new Set<string>();
  for (const { name } of operations) {
    if (seen.has(name)) {
      throw new Error(`[openapi] two routes share the key ${name}`);
    }
    seen.add(name);
  }
  return operations.filter(({ metadata }) => metadata.auth !== 'internal');
}
