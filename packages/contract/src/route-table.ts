import { contractOperations, type ContractOperation } from './contract-operations.js';
import type { AppRouter } from '@ts-rest/core';

export type Resolution =
  | { kind: 'operation'; operation: ContractOperation }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'not_found' };

type Segment = { literal: string } | { parameter: string; optional: boolean };

interface CompiledOperation extends ContractOperation {
  segments: Segment[];
}

function compile(path: string): Segment[] {
  return path
    .split('/')
    .slice(1)
    .map((part) => {
      if (!part.startsWith(':')) return { literal: part };
      const optional = part.endsWith('?');
      return { parameter: part.slice(1, optional ? -1 : undefined), optional };
    });
}

/**
 * Whether `parts` (a path split on `/`, as long as the route or one shorter where the route ends
 * in an optional parameter) fill the route's segments: literals equal, parameters not empty.
 */
function matches(segments: Segment[], parts: string[]): boolean {
  for (let index = 0; index < parts.length; index++) {
    const segment = segments[index];
    const part = parts[index];
    if (segment === undefined || part === undefined) return false;
    if ('literal' in segment ? part !== segment.literal : part === '') return false;
  }
  return true;
}

/** `GET` routes answer `HEAD` too; every known path answers `OPTIONS`. */
function allowedMethods(operations: CompiledOperation[]): string[] {
  const methods = new Set(['OPTIONS']);
  for (const { route } of operations) {
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
  }
  return [...methods].sort();
}

/**
 * Resolves a request's method and path to the contract operation that serves it. The table is
 * the contract itself: adding a route to the contract routes it, with no list kept here. Routes
 * match in contract order, as in the services' routers.
 */
export class RouteTable {
  readonly #operations: CompiledOperation[];
  /** Operations by the number of path parts they accept, in contract order. */
  readonly #byLength = new Map<number, CompiledOperation[]>();

  constructor(router: AppRouter) {
    this.#operations = contractOperations(router).map((operation) => ({
      ...operation,
      segments: compile(operation.route.path),
    }));
    const accept = (length: number, operation: CompiledOperation) => {
      const list = this.#byLength.get(length) ?? [];
      list.push(operation);
      this.#byLength.set(length, list);
    };
    for (const operation of this.#operations) {
      const { segments } = operation;
      accept(segments.length, operation);
      const last = segments.at(-1);
      // `/a/:b?` answers `/a` too.
      if (last && 'parameter' in last && last.optional) accept(segments.length - 1, operation);
    }
  }

  get operations(): readonly ContractOperation[] {
    return this.#operations;
  }

  resolve(method: string, path: string): Resolution {
    const parts = path.split('/').slice(1);
    const candidates = (this.#byLength.get(parts.length) ?? []).filter(({ segments }) =>
      matches(segments, parts),
    );
    if (candidates.length === 0) return { kind: 'not_found' };
    const wanted = method === 'HEAD' ? 'GET' : method;
    const operation = candidates.find(({ route }) => route.method === wanted);
    if (operation) return { kind: 'operation', operation };
    return { kind: 'method_not_allowed', allow: allowedMethods(candidates) };
  }
}
