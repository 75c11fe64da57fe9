import type { AppRouter } from '@ts-rest/core';
import { contractOperations, type ContractOperation } from './contract-operations.js';

export type Resolution =
  | { kind: 'operation'; operation: ContractOperation; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'not_found' };

type Segment = { literal: string } | { parameter: string; optional: boolean };

interface CompiledOperation {
  operation: ContractOperation;
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

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The path parameters when `parts` fill the segments: literals equal, parameters not empty. */
function match(segments: Segment[], parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (const [index, part] of parts.entries()) {
    const segment = segments[index];
    if (segment === undefined || ('literal' in segment ? part !== segment.literal : part === '')) {
      return undefined;
    }
    if ('parameter' in segment) params[segment.parameter] = decode(part);
  }
  return params;
}

/** Resolves method and path to the contract operation serving it, in contract order. */
export class RouteTable {
  /** Operations by the number of path parts they accept. */
  readonly #byLength = new Map<number, CompiledOperation[]>();

  constructor(router: AppRouter) {
    for (const operation of contractOperations(router)) {
      const segments = compile(operation.route.path);
      const last = segments.at(-1);
      // `/a/:b?` answers `/a` too.
      const optional = last !== undefined && 'parameter' in last && last.optional;
      for (const length of optional ? [segments.length, segments.length - 1] : [segments.length]) {
        this.#byLength.set(length, [
          ...(this.#byLength.get(length) ?? []),
          { operation, segments },
        ]);
      }
    }
  }

  resolve(method: string, path: string): Resolution {
    const parts = path.split('/').slice(1);
    const compiled = this.#byLength.get(parts.length) ?? [];
    const wanted = method === 'HEAD' ? 'GET' : method;
    // The first operation of the method whose path matches, in contract order: the same as the
    // first of those whose path matches that has the method, without matching the others.
    for (const { operation, segments } of compiled) {
      if (operation.route.method !== wanted) continue;
      const params = match(segments, parts);
      if (params) return { kind: 'operation', operation, params };
    }
    const methods = compiled
      .filter(({ segments }) => match(segments, parts) !== undefined)
      .map(({ operation }) => operation.route.method);
    if (methods.length === 0) return { kind: 'not_found' };
    // `GET` routes answer `HEAD` too; every known path answers `OPTIONS`.
    const allow = new Set(['OPTIONS', ...methods]);
    if (allow.has('GET')) allow.add('HEAD');
    return { kind: 'method_not_allowed', allow: [...allow].sort() };
  }
}
