import { UnknownStatusError } from '@ts-rest/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ZodError } from 'zod';
import { createInternalClient, createPetstoreClient } from './clients.js';
import type { Pet } from './pets.js';
import { startRecordingServer } from './test-support/recording-server.js';

const API_KEY = 'psk_8Zq3VtK1mW7xR2cN5bH9jL4pD6fS0aYe';
const pet: Pet = { id: 7, name: 'Rex', categoryId: 1, status: 'available' };
const conflict = {
  code: 'conflict',
  message: 'email already used',
  status: 409,
};

describe('createPetstoreClient', () => {
  it('sends the API key as a bearer token with the method, path and JSON body', async () => {
    await using server = await startRecordingServer({ status: 201, body: pet });
    const client = createPetstoreClient({
      baseUrl: `${server.url}/`,
      apiKey: API_KEY,
    });

    const response = await client.pets.createPet({
      body: { name: 'Rex', categoryId: 1 },
    });

    expectTypeOf(response.status).toEqualTypeOf<
      | 201
      | 400
      | 401
      | 403
      | 408
      | 409
      | 413
      | 415
      | 422
      | 429
      | 500
      | 502
      | 503
      | 504
    >();
    expect(response.status).toBe(201);
    expect(response.body).toEqual(pet);
    const [request] = server.requests;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/v2/pets',
      body: { name: 'Rex', categoryId: 1 },
    });
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.headers['content-type']).toBe('application/json');
  });

  it('writes several statuses as repeated query parameters', async () => {
    await using server = await startRecordingServer({
      status: 200,
      body: [pet],
    });
    const client = createPetstoreClient({
      baseUrl: server.url,
      apiKey: API_KEY,
    });

    await client.pets.listPets({
      query: { status: ['available', 'pending'], categoryId: '1', limit: 5 },
    });

    expect(server.requests[0]?.url).toBe(
      '/v2/pets?status=available&status=pending&categoryId=1&limit=5',
    );
  });

  it('puts a path id into the path', async () => {
    await using server = await startRecordingServer({ status: 200, body: pet });
    const client = createPetstoreClient({
      baseUrl: server.url,
      apiKey: API_KEY,
    });

    const response = await client.pets.getPet({ params: { petId: '7' } });

    expect(response.body).toEqual(pet);
    expect(server.requests[0]).toMatchObject({
      method: 'GET',
      url: '/v2/pets/7',
    });
  });

  it('sends the Idempotency-Key header of an order', async () => {
    await using server = await startRecordingServer({
      status: 201,
      body: { id: 3 },
    });
    const client = createPetstoreClient({
      baseUrl: server.url,
      apiKey: API_KEY,
    });

    await client.orders.placeOrder({
      body: { petId: 7, quantity: 1 },
      headers: { 'idempotency-key': 'order-1' },
    });

    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      url: '/v2/store/orders',
    });
    expect(server.requests[0]?.headers['idempotency-key']).toBe('order-1');
  });

  it('sends no Authorization header without a key', async () => {
    await using server = await startRecordingServer({
      status: 409,
      body: conflict,
    });
    const client = createPetstoreClient({ baseUrl: server.url });

    const response = await client.accounts.createAccount({
      body: { email: 'jane@example.com' },
    });

    expect(response).toMatchObject({ status: 409, body: conflict });
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('throws on a status the operation does not declare', async () => {
    await using server = await startRecordingServer({ status: 418, body: {} });
    const client = createPetstoreClient({
      baseUrl: server.url,
      apiKey: API_KEY,
    });

    await expect(client.accounts.getMe()).rejects.toBeInstanceOf(
      UnknownStatusError,
    );
  });
});

describe('createInternalClient', () => {
  it('sends the internal token and the request id, never an API key', async () => {
    await using server = await startRecordingServer({ status: 200, body: pet });
    const client = createInternalClient({
      baseUrl: server.url,
      internalToken: 'internal-secret',
      requestId: 'req-42',
    });

    const response = await client.pets.getPet({ params: { petId: '7' } });

    expect(response).toMatchObject({ status: 200, body: pet });
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'GET', url: '/internal/pets/7' });
    expect(request?.headers['x-internal-token']).toBe('internal-secret');
    expect(request?.headers['x-request-id']).toBe('req-42');
    expect(request?.headers.authorization).toBeUndefined();
  });

  it('sets a pet status with a PUT and rejects an answer that breaks the contract', async () => {
    await using server = await startRecordingServer({
      status: 200,
      body: { id: 7 },
    });
    const client = createInternalClient({
      baseUrl: server.url,
      internalToken: 'internal-secret',
    });

    await expect(
      client.pets.setPetStatus({
        params: { petId: '7' },
        body: { status: 'sold', version: 3 },
      }),
    ).rejects.toBeInstanceOf(ZodError);

    expect(server.requests[0]).toMatchObject({
      method: 'PUT',
      url: '/internal/pets/7/status',
      body: { status: 'sold', version: 3 },
    });
    expect(server.requests[0]?.headers['x-request-id']).toBeUndefined();
  });

  it('asks for several pets’ statuses with a repeated petId', async () => {
    await using server = await startRecordingServer({ status: 200, body: [] });
    const client = createInternalClient({
      baseUrl: server.url,
      internalToken: 'internal-secret',
    });
    const answer = await client.pets.listPetStatuses({
      query: { petId: ['7', '8'] },
    });
    expect(answer.status).toBe(200);
    expect(server.requests[0]).toMatchObject({
      method: 'GET',
      url: '/internal/pet-statuses?petId=7&petId=8',
    });
  });
});
