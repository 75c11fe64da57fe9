import type { AppRouter } from '@ts-rest/core';
import { contractOperations, type ContractOperation } from '../contract-operations.js';

/** The routes the document shows (not the internal ones); keys are operationIds, so unique. */
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
