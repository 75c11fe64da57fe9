import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from './support/test-stack.js';

describe('the quickstart, through the gateway', () => {
  let api: TestStack;

  beforeAll(async () => {
    api = await startTestStack();
  });
  afterAll(async () => {
    await api?.[Symbol.asyncDispose]();
  });

  it('is ready and documents itself', async () => {
    const ready = await fetch(`${api.url}/ready`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('api-version')).toBe('2.0.0');
    const document = (await (
      await fetch(`${api.url}/openapi.json`)
    ).json()) as {
      openapi: string;
      servers: { url: string }[];
    };
    expect(document.openapi).toBe('3.0.3');
    expect(document.servers[0]?.url).toBe(api.url);
  });

  it('signs up, sends a message that gets delivered, and orders a stocked pet', async () => {
    const customer = await api.signUp('jane@example.com');
    expect(customer.apiKey).toMatch(/^psk_[0-9A-Za-z]{32,}$/);
    const me = await customer.api.accounts.getMe();
    expect(me).toMatchObject({
      status: 200,
      body: { email: 'jane@example.com', role: 'customer' },
    });

    const sent = await customer.api.messages.sendMessage({
      body: { message: 'Hello, Petstore!' },
    });
    expect(sent).toMatchObject({ status: 202, body: { status: 'queued' } });
    const messageId = sent.status === 202 ? sent.body.id : '';
    await expect
      .poll(() => customer.api.messages.getMessage({ params: { messageId } }))
      .toMatchObject({
        status: 200,
        body: { id: messageId, status: 'delivered' },
      });

    const category = await api.admin.categories.createCategory({
      body: { name: 'Dogs' },
    });
    expect(category).toMatchObject({ status: 201, body: { name: 'Dogs' } });
    const categoryId = category.status === 201 ? category.body.id : -1;
    const pet = await api.admin.pets.createPet({
      body: { name: 'Rex', categoryId },
    });
    expect(pet).toMatchObject({
      status: 201,
      body: { name: 'Rex', categoryId, status: 'available' },
    });
    const petId = pet.status === 201 ? pet.body.id : -1;
    expect(pet.headers.get('location')).toBe(`/v2/pets/${petId}`);

    const stocked = await api.admin.inventory.setInventory({
      params: { petId: String(petId) },
      body: { quantity: 1 },
    });
    expect(stocked).toMatchObject({
      status: 200,
      body: { petId, quantity: 1, status: 'available' },
    });

    const order = await customer.api.orders.placeOrder({
      body: { petId, quantity: 1 },
    });
    expect(order).toMatchObject({
      status: 201,
      body: { petId, quantity: 1, complete: false },
    });

    await expect
      .poll(async () => (await customer.api.pets.listPets({ query: {} })).body)
      .toEqual([{ id: petId, name: 'Rex', categoryId, status: 'pending' }]);
  });
});
