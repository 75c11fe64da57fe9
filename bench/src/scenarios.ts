import { internalHeaders } from '@petstore/service-kit';
import type { Stack } from '@petstore/stack';
import type { Fixtures } from './fixtures.js';
import type { Target } from './load.js';
import type { Database, ScenarioId } from './scenario-ids.js';

export interface Scenario {
  id: ScenarioId;
  title: string;
  /** The database under the scenario; none for the bare server. */
  database?: Database;
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

/** Where each reference server started for a run listens. */
export type ReferenceUrls = Partial<Record<'R1' | 'R2' | 'RK' | 'RG' | 'RT', string>>;

const REFERENCE_TITLES = {
  R1: '`node:http` + the driver’s `findOne`',
  R2: '`node:http` + SHA-256 key lookup + undici `Pool` → R1',
  RK: 'R1’s read in Koa’s one middleware, with the headers the API asks of it',
  RG: 'R2’s proxy in Koa’s one middleware → RK',
  RT: 'R1 with every request traced (`always_on`) and exported over OTLP',
};

/**
 * R1 and R2, the least a pet read costs, directly and through a proxy checking the key; RK, RG
 * and RT, the least it costs in Koa, through a Koa proxy in front of RK, and traced.
 */
export function referenceScenarios(
  database: Database,
  urls: ReferenceUrls,
  fixtures: Fixtures,
): Scenario[] {
  return (['R1', 'R2', 'RK', 'RG', 'RT'] as const).flatMap((id) => {
    const url = urls[id];
    if (url === undefined) return [];
    const target: Target =
      id === 'R2' || id === 'RG'
        ? petRead(url, fixtures)
        : { url: `${url}/v1/pets/${fixtures.petId}`, method: 'GET', headers: {} };
    return [{ id, title: REFERENCE_TITLES[id], database, target }];
  });
}

type Customer = Pick<Fixtures, 'petId' | 'customer'>;

/** A customer reads the pet with their key, at `url`: the gateway or what stands for it. */
function petRead(url: string, { petId, customer }: Customer): Target {
  return {
    url: `${url}/v1/pets/${petId}`,
    method: 'GET',
    headers: { authorization: `Bearer ${customer.apiKey}` },
  };
}

/** (d)'s request: a customer orders one of the pet. */
function orderTarget(stack: Stack, { petId, customer }: Customer): Target {
  return {
    url: `${stack.url}/v1/store/orders`,
    method: 'POST',
    headers: { authorization: `Bearer ${customer.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ petId, quantity: 1 }),
  };
}

/** (b)–(e): the pets service directly, then the gateway with a customer's key. */
export function stackScenarios(
  database: Database,
  stack: Stack,
  { petId, customer }: Fixtures,
): Scenario[] {
  return [
    {
      id: 'b',
      title: '`GET /v1/pets/{petId}`, pets service directly',
      database,
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
      database,
      target: petRead(stack.url, { petId, customer }),
    },
    {
      id: 'd',
      title: '`POST /v1/store/orders` through the gateway',
      database,
      target: orderTarget(stack, { petId, customer }),
    },
    {
      id: 'e',
      title: '`POST /v1/messages` through the gateway',
      database,
      target: {
        url: `${stack.url}/v1/messages`,
        method: 'POST',
        headers: {
          authorization: `Bearer ${customer.apiKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ message: 'Hello, Petstore!' }),
      },
    },
  ];
}

/** How (h) and (i), each in a stack of its own, differ from (c). */
const gatewayReadVariants = {
  h: 'metrics on',
  i: 'every request traced (`always_on`), exported over OTLP',
};

/**
 * (h), (i): `GET /v1/pets/{petId}` through the gateway with metrics on; with tracing on.
 */
export function gatewayReadScenario(
  id: keyof typeof gatewayReadVariants,
  database: Database,
  stack: Stack,
  fixtures: Fixtures,
): Scenario {
  return {
    id,
    title: `\`GET /v1/pets/{petId}\` through the gateway, ${gatewayReadVariants[id]}`,
    database,
    target: petRead(stack.url, fixtures),
  };
}

/**
 * (j0), (j): (d) in fresh stacks of their own, without a webhook and with an admin webhook on
 * `order.created` whose receiver never answers.
 */
export function webhookScenarios(
  database: Database,
  stack: Stack,
  fixtures: Fixtures,
): [Scenario, Scenario] {
  const target = orderTarget(stack, fixtures);
  const title = '`POST /v1/store/orders` through the gateway';
  return [
    { id: 'j0', title: `${title}, no webhook`, database, target },
    {
      id: 'j',
      title: `${title}, a webhook on \`order.created\` whose receiver never answers`,
      database,
      target,
    },
  ];
}
