import { beforeAll } from 'vitest';
import { stockedPet } from './catalogue.js';
import type { SignedUp, TestStack } from './test-stack.js';

/** What a suite's tests shop with. */
export interface Shop {
  customer: SignedUp;
  categoryId: number;
  /** A pet of `categoryId` with stock in the store. */
  petId: number;
}

/**
 * A customer and a pet with `stock` in the store, made on the file's stack (`testStackForFile`,
 * called first) before the file's first test; read them from hooks and tests.
 */
export function shopForFile(api: TestStack, stock = 100): Shop {
  const shop = {} as Shop;
  beforeAll(async () => {
    Object.assign(shop, {
      customer: await api.signUp(),
      ...(await stockedPet(api.admin, stock)),
    });
  });
  return shop;
}
