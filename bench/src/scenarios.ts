import { internalHeaders } from '@petstore/service-kit';
import type { Stack } from '@petstore/stack';
import type { Fixtures } from './fixtures.js';
import type { Target } from './load.js';
import type { ScenarioId } from './report.js';

export interface Scenario {
  id: ScenarioId;
  title: string;
  target: Target;
}

/** (a): the ceiling, `node:http` answering a fixed Pet. */
export function bareScenario(url: string): Scenario {
  return {
    id: 'a',
    title: 'bare `node:http`, a fixed Pet',
    target: { url: `${url}/v1/pets/1`, method: 'GET', headers: {} },
  };
}

/** (b)–(e): the pets service directly, then the gateway with a customer's key. */
export function stackScenarios(stack: Stack, { petId, customer }: Fixtures): Scenario[] {
  const bearer = { authorization: `Bearer ${customer.apiKey}` };
  const json = { 'content-type': 'application/json' };
  return [
    {
      id: 'b',
      title: '`GET /v1/pets/{petId}`, pets service directly',
      target: {
        url: `${stack.pets.url}/v1/pets/${petId}`,
        method: 'GET',
        // What the gateway sends along with every request it forwards.
        headers: {
          [internalHeaders.token]: stack.internalToken,
          [internalHeaders.accountId]: customer.accountId,
          [internalHeaders.role]: 'customer',
          [internalHeaders.requestId]: 'bench-direct',
        },
      },
    },
    {
      id: 'c',
      title: '`GET /v1/pets/{petId}` through the gateway',
      target: { url: `${stack.url}/v1/pets/${petId}`, method: 'GET', headers: bearer },
    },
    {
      id: 'd',
      title: '`POST /v1/store/orders` through the gateway',
      target: {
        url: `${stack.url}/v1/store/orders`,
        method: 'POST',
        headers: { ...bearer, ...json },
        body: JSON.stringify({ petId, quantity: 1 }),
      },
    },
    {
      id: 'e',
      title: '`POST /v1/messages` through the gateway',
      target: {
        url: `${stack.url}/v1/messages`,
        method: 'POST',
        headers: { ...bearer, ...json },
        body: JSON.stringify({ message: 'Hello, Petstore!' }),
      },
    },
  ];
}

/**
 * (f), (g): `GET /v1/pets/{petId}` through the gateway on a database several gateways can share,
 * with its rate limits counted in memory, then in the database.
 */
export function rateLimitScenario(
  id: 'f' | 'g',
  stack: Stack,
  { petId, customer }: Fixtures,
): Scenario {
  const where = id === 'f' ? 'in memory (`local`)' : 'in the database (`cluster`)';
  return {
    id,
    title: `\`GET /v1/pets/{petId}\` through the gateway, mongo-java-server, rate limits ${where}`,
    target: {
      url: `${stack.url}/v1/pets/${petId}`,
      method: 'GET',
      headers: { authorization: `Bearer ${customer.apiKey}` },
    },
  };
}

/** (h), (i): `GET /v1/pets/{petId}` through the gateway with metrics on, then with tracing on. */
export function telemetryScenario(
  id: 'h' | 'i',
  stack: Stack,
  { petId, customer }: Fixtures,
): Scenario {
  const what = id === 'h' ? 'metrics on' : 'every request traced (`always_on`), exported over OTLP';
  return {
    id,
    title: `\`GET /v1/pets/{petId}\` through the gateway, ${what}`,
    target: {
      url: `${stack.url}/v1/pets/${petId}`,
      method: 'GET',
      headers: { authorization: `Bearer ${customer.apiKey}` },
    },
  };
}
