import {
  INT64_MAX,
  JSON_TYPE,
  error,
  withJson,
  type BadInputCase,
  type Expected,
} from './case-types.js';
import type { Fixtures } from './fixtures.js';

const invalid = error('validation_failed');
const json = (value: unknown) => JSON.stringify(value);
type Fields = (f: Fixtures) => Record<string, unknown>;

const createPet = (
  name: string,
  fields: Fields,
  expected: Expected = invalid,
) =>
  withJson(
    'createPet',
    'POST',
    '/v1/pets',
    name,
    (f) => json(fields(f)),
    expected,
  );
const placeOrder = (
  name: string,
  fields: Fields,
  expected: Expected = invalid,
) =>
  withJson(
    'placeOrder',
    'POST',
    '/v1/store/orders',
    name,
    (f) => json(fields(f)),
    expected,
  );
const setInventory = (name: string, quantity: string) =>
  withJson(
    'setInventory',
    'PUT',
    '/v1/store/inventory/{pet}',
    name,
    `{"quantity":${quantity}}`,
    {
      ...invalid,
    },
  );
const updateOrder = (name: string, body: unknown) =>
  withJson(
    'updateOrder',
    'PATCH',
    '/v1/store/orders/{order}',
    name,
    json(body),
    invalid,
  );
const createAccount = (
  name: string,
  body: unknown,
  expected: Expected = invalid,
) =>
  withJson(
    'createAccount',
    'POST',
    '/v1/accounts',
    name,
    json(body),
    expected,
    'anonymous',
  );
const sendMessage = (name: string, body: unknown) =>
  withJson('sendMessage', 'POST', '/v1/messages', name, json(body), invalid);
const createCategory = (
  name: string,
  body: unknown,
  expected: Expected = invalid,
) =>
  withJson(
    'createCategory',
    'POST',
    '/v1/categories',
    name,
    json(body),
    expected,
  );

/** Field by field: the values each schema refuses, and the conflicts that must write nothing. */
export function fieldCases(): BadInputCase[] {
  return [
    createPet('an empty name', (f) => ({ name: '', categoryId: f.categoryId })),
    createPet('a name of spaces', (f) => ({
      name: '   ',
      categoryId: f.categoryId,
    })),
    createPet('a name of 101 characters', (f) => ({
      name: 'x'.repeat(101),
      categoryId: f.categoryId,
    })),
    createPet('a number for the name', (f) => ({
      name: 7,
      categoryId: f.categoryId,
    })),
    createPet('no categoryId', () => ({ name: 'Bella' })),
    createPet('categoryId as a string', (f) => ({
      name: 'Bella',
      categoryId: `${f.categoryId}`,
    })),
    createPet('a negative categoryId', () => ({
      name: 'Bella',
      categoryId: -1,
    })),
    createPet('a fractional categoryId', () => ({
      name: 'Bella',
      categoryId: 1.5,
    })),
    createPet('categoryId 2^53, past exact JSON integers', () => ({
      name: 'Bella',
      categoryId: 2 ** 53,
    })),
    withJson(
      'createPet',
      'POST',
      '/v1/pets',
      'categoryId the largest int64 as a JSON number',
      `{"name": "Bella", "categoryId": ${INT64_MAX}}`,
      invalid,
    ),
    withJson(
      'createPet',
      'POST',
      '/v1/pets',
      'categoryId 1e400 (Infinity once parsed)',
      '{"name": "Bella", "categoryId": 1e400}',
      invalid,
    ),
    createPet('a null categoryId', () => ({ name: 'Bella', categoryId: null })),
    createPet('an unknown status', (f) => ({
      name: 'Bella',
      categoryId: f.categoryId,
      status: 'lost',
    })),
    createPet('an upper-case status', (f) => ({
      name: 'Bella',
      categoryId: f.categoryId,
      status: 'AVAILABLE',
    })),
    createPet(
      'a category that does not exist',
      () => ({ name: 'Bella', categoryId: 999_999 }),
      error('unknown_category'),
    ),
    withJson(
      'replacePet',
      'PUT',
      '/v1/pets/{pet}',
      'no categoryId',
      json({ name: 'B' }),
      invalid,
    ),
    withJson(
      'updatePet',
      'PATCH',
      '/v1/pets/{pet}',
      'a category that does not exist',
      json({ categoryId: 999_999 }),
      error('unknown_category'),
    ),
    withJson(
      'updatePet',
      'PATCH',
      '/v1/pets/{pet}',
      'a null status',
      json({ status: null }),
      {
        ...invalid,
      },
    ),
    createCategory(
      'a name used already, in another case',
      { name: 'dogs' },
      error('conflict'),
    ),
    createCategory('a description of 1001 characters', {
      name: 'Cats',
      description: 'd'.repeat(1001),
    }),
    createCategory('a number for the description', {
      name: 'Cats',
      description: 5,
    }),
    withJson(
      'replaceCategory',
      'PUT',
      '/v1/categories/{category}',
      'an empty name',
      json({ name: '' }),
      invalid,
    ),
    {
      name: 'deleteCategory: a category pets still use',
      operation: 'deleteCategory',
      method: 'DELETE',
      path: '/v1/categories/{category}',
      expected: error('category_in_use'),
    },
    placeOrder('quantity 0', (f) => ({ petId: f.petId, quantity: 0 })),
    placeOrder('a negative quantity', (f) => ({
      petId: f.petId,
      quantity: -1,
    })),
    placeOrder('a fractional quantity', (f) => ({
      petId: f.petId,
      quantity: 1.5,
    })),
    placeOrder('quantity as a string', (f) => ({
      petId: f.petId,
      quantity: '1',
    })),
    placeOrder('a quantity over a million', (f) => ({
      petId: f.petId,
      quantity: 1_000_001,
    })),
    placeOrder('no petId', () => ({ quantity: 1 })),
    placeOrder('a shipDate that is no date', (f) => ({
      petId: f.petId,
      quantity: 1,
      shipDate: 'tomorrow',
    })),
    placeOrder('a shipDate in month 13', (f) => ({
      petId: f.petId,
      quantity: 1,
      shipDate: '2026-13-01T10:00:00Z',
    })),
    placeOrder('a number for shipDate', (f) => ({
      petId: f.petId,
      quantity: 1,
      shipDate: 1_700_000_000,
    })),
    placeOrder(
      'a pet that does not exist',
      () => ({ petId: 999_999, quantity: 1 }),
      error('unknown_pet'),
    ),
    placeOrder(
      'more than the stock',
      (f) => ({ petId: f.petId, quantity: 1_000_000 }),
      error('insufficient_stock'),
    ),
    {
      ...placeOrder(
        'more than the stock, with an Idempotency-Key (not remembered)',
        (f) => ({ petId: f.petId, quantity: 1_000_000 }),
        error('insufficient_stock'),
      ),
      headers: { ...JSON_TYPE, 'idempotency-key': 'bad-input-insufficient' },
    },
    {
      ...placeOrder('an Idempotency-Key of 256 characters', (f) => ({
        petId: f.petId,
        quantity: 1,
      })),
      headers: { ...JSON_TYPE, 'idempotency-key': 'k'.repeat(256) },
    },
    {
      ...placeOrder('an empty Idempotency-Key', (f) => ({
        petId: f.petId,
        quantity: 1,
      })),
      headers: { ...JSON_TYPE, 'idempotency-key': '' },
    },
    updateOrder('complete false (an order is never reopened)', {
      complete: false,
    }),
    updateOrder('complete as a string', { complete: 'true' }),
    updateOrder('a shipDate that is no date', { shipDate: 'soon' }),
    setInventory('a negative quantity', '-1'),
    setInventory('a fractional quantity', '1.5'),
    setInventory('quantity as a string', '"5"'),
    setInventory('a quantity over a million', '1000001'),
    setInventory('a null quantity', 'null'),
    createAccount('no email', { name: 'Jane' }),
    createAccount('an empty email', { email: '' }),
    createAccount('an email without @', { email: 'jane.example.com' }),
    createAccount('an email of 255 characters', {
      email: `${'j'.repeat(243)}@example.com`,
    }),
    createAccount('an email with a NUL', { email: 'ja\u0000ne@example.com' }),
    createAccount('an operator object for the email', { email: { $gt: '' } }),
    createAccount('an array of emails', {
      email: ['a@example.com', 'b@example.com'],
    }),
    createAccount('an empty name', { email: 'jane.doe@example.com', name: '' }),
    createAccount('a name of 101 characters', {
      email: 'jane.doe@example.com',
      name: 'n'.repeat(101),
    }),
    createAccount('a number for the name', {
      email: 'jane.doe@example.com',
      name: 5,
    }),
    withJson(
      'createAccount',
      'POST',
      '/v1/accounts',
      'an email used already, in capitals',
      (f) => json({ email: f.customer.email.toUpperCase() }),
      error('conflict'),
      'anonymous',
    ),
    sendMessage('an empty message', { message: '' }),
    sendMessage('a message of 10 001 characters', {
      message: 'm'.repeat(10_001),
    }),
    sendMessage('a number for the message', { message: 5 }),
    sendMessage('a null message', { message: null }),
    sendMessage('no message', { text: 'hi' }),
    sendMessage('a lone surrogate in the message', { message: 'a\ud800b' }),
    createCategory('a lone low surrogate in the name', { name: 'x\udc00y' }),
  ];
}
