import { callHttp, type HttpAnswer } from '@petstore/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { ok } from './support/catalogue.js';
import { expectError } from './support/error-bodies.js';
import { testStackForFile } from './support/stack-for-file.js';
import { unthrottled } from './support/test-stack.js';

const api = testStackForFile(unthrottled);

let adminKey: string;
let petId: number;

beforeAll(async () => {
  adminKey = api.stack.adminApiKey;
  const { id: categoryId } = ok(
    await api.admin.categories.createCategory({ body: { name: 'Dogs' } }),
    201,
  ).body;
  petId = ok(
    await api.admin.pets.createPet({ body: { name: 'Rex', categoryId } }),
    201,
  ).body.id;
});

const asAdmin = (method: string, path: string, body?: unknown) =>
  callHttp(api.url, method, path, {
    apiKey: adminKey,
    ...(body === undefined ? {} : { body }),
  });

/** A 400 `validation_failed` that names `path` in its details and its message. */
function expectUnknown(answer: HttpAnswer, path: string): void {
  expectError(answer, 'validation_failed');
  expect(answer.body).toMatchObject({
    message: expect.stringContaining(`${path}: unknown parameter`) as unknown,
    details: expect.arrayContaining([
      { path, message: 'unknown parameter' },
    ]) as unknown,
  });
}

describe('strict input, through the gateway', () => {
  it('answers 400 naming a misspelt PATCH field, and leaves the pet as it was', async () => {
    expectUnknown(
      await asAdmin('PATCH', `/v1/pets/${petId}`, { stauts: 'sold' }),
      'body.stauts',
    );

    const pets = ok(await api.admin.pets.listPets({ query: {} }), 200).body;
    expect(pets.find(({ id }) => id === petId)).toMatchObject({
      name: 'Rex',
      status: 'available',
    });
  });

  it('answers 400 naming an unknown query parameter of a list', async () => {
    expectUnknown(await asAdmin('GET', '/v1/pets?colour=x'), 'query.colour');
  });

  it('refuses unknown input to the gateway’s own operations too', async () => {
    expectUnknown(
      await asAdmin('POST', '/v1/messages', { message: 'hi', urgent: true }),
      'body.urgent',
    );
    expectUnknown(
      await asAdmin('GET', '/v1/webhooks?colour=x'),
      'query.colour',
    );
    expectUnknown(
      await asAdmin('GET', '/v1/accounts/me?colour=x'),
      'query.colour',
    );
  });

  it('lets headers it does not know through', async () => {
    const answer = await callHttp(api.url, 'GET', `/v1/pets?limit=1`, {
      apiKey: adminKey,
      headers: { 'X-Colour': 'brown', 'Idempotency-Key': 'not-used-by-a-get' },
    });
    expect(answer.status).toBe(200);
  });
});
