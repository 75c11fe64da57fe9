import { describe, expect, it } from 'vitest';
import { startBooks } from './test-support/start-books.js';

describe('response validation', () => {
  it('answers 500 internal_error when a handler returns a body the contract rejects', async () => {
    await using server = await startBooks({ validateResponses: true });
    const response = await fetch(`${server.url}/bestseller`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      code: 'internal_error',
      message: 'internal error',
      status: 500,
    });
  });

  it('passes the handler response through when validation is off', async () => {
    await using server = await startBooks({ validateResponses: false });
    const response = await fetch(`${server.url}/bestseller`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: 1,
      title: '',
      genre: 'cookery',
    });
  });

  it('sends the parsed body, dropping properties the contract does not declare', async () => {
    await using server = await startBooks({ validateResponses: true });
    const response = await fetch(`${server.url}/books/1`);
    expect(await response.json()).not.toHaveProperty('shelf');
  });

  it('leaves undeclared properties in the body when validation is off', async () => {
    await using server = await startBooks({ validateResponses: false });
    const response = await fetch(`${server.url}/books/1`);
    expect(await response.json()).toHaveProperty('shelf', 'A1');
  });
});
