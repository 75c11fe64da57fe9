import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { databaseCommands, type ServiceProcess, type Stack } from '@petstore/stack';
import type { Scenario } from './scenarios.js';

/** The database commands one request of an operation caused, on average, in every service. */
export interface OperationCommands {
  /** The scenario's id; `d-keyed` for (d) sent with an `Idempotency-Key`. */
  id: string;
  operation: string;
  perRequest: number;
  /** `"<service>: <command> <collection>"` → commands per request. */
  byCommand: Record<string, number>;
}

/** Requests sent one after the other per operation: enough to average out id blocks. */
const REQUESTS = 50;
const round2 = (value: number) => Math.round(value * 100) / 100;

async function commandsSent(stack: Stack): Promise<Map<string, number>> {
  const sent = new Map<string, number>();
  const processes: [string, ServiceProcess][] = [
    ['gateway', stack.gateway],
    ['pets', stack.pets],
    ['store', stack.store],
  ];
  for (const [name, process] of processes) {
    for (const [command, count] of await databaseCommands(process)) {
      sent.set(`${name}: ${command}`, count);
    }
  }
  return sent;
}

/** The counts once what the requests left to do in the background (deliveries, pushes) is done. */
async function settledCounts(stack: Stack, timeoutMs = 10_000): Promise<Map<string, number>> {
  const deadline = Date.now() + timeoutMs;
  let last = JSON.stringify([...(await commandsSent(stack))]);
  for (;;) {
    await sleep(250);
    const now = await commandsSent(stack);
    const text = JSON.stringify([...now]);
    if (text === last || Date.now() > deadline) return now;
    last = text;
  }
}

interface Operation {
  id: string;
  title: string;
  target: Scenario['target'];
  /** Each request with an `Idempotency-Key` of its own. */
  keyed?: boolean;
}

/** The scenarios, and (d) again with an `Idempotency-Key`. */
function operationsOf(scenarios: Scenario[]): Operation[] {
  return scenarios.flatMap((scenario): Operation[] =>
    scenario.id === 'd'
      ? [
          scenario,
          {
            ...scenario,
            id: 'd-keyed',
            title: `${scenario.title}, with an \`Idempotency-Key\``,
            keyed: true,
          },
        ]
      : [scenario],
  );
}

/**
 * Sends each scenario's request `REQUESTS` times, one after the other, to a stack serving
 * metrics, and reads from the services' metrics (the driver's command monitoring, as the budget
 * test does) how many database commands each request caused, its after-work included.
 */
export async function commandsPerOperation(
  stack: Stack,
  scenarios: Scenario[],
): Promise<OperationCommands[]> {
  const counted: OperationCommands[] = [];
  for (const { id, title, target, keyed } of operationsOf(scenarios)) {
    const before = await settledCounts(stack);
    for (let sent = 0; sent < REQUESTS; sent++) {
      const key: Record<string, string> = keyed ? { 'idempotency-key': randomUUID() } : {};
      const answer = await fetch(target.url, {
        method: target.method,
        headers: { ...target.headers, ...key },
        body: target.body,
      });
      await answer.arrayBuffer();
      if (!answer.ok) throw new Error(`[bench] ${title}: ${answer.status} while counting commands`);
    }
    const after = await settledCounts(stack);
    const byCommand: Record<string, number> = {};
    let total = 0;
    for (const [command, count] of after) {
      const more = count - (before.get(command) ?? 0);
      if (more <= 0) continue;
      byCommand[command] = round2(more / REQUESTS);
      total += more;
    }
    counted.push({ id, operation: title, perRequest: round2(total / REQUESTS), byCommand });
  }
  return counted;
}
