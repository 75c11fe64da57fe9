/** The parts of a V8 `.cpuprofile` (what `node --cpu-prof` writes) that the summary reads. */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }[];
  startTime: number;
  endTime: number;
  /** The node sampled at each tick… */
  samples: number[];
  /** …and the microseconds since the tick before it. */
  timeDeltas: number[];
}

export interface FunctionTime {
  /** `name (where:line)`; the same function reached by several paths counts once. */
  name: string;
  /** Workspace package, dependency or `node:` module it belongs to. */
  owner: string;
  selfMs: number;
  /** Time with this function on the stack, callees included (recursion counted once). */
  totalMs: number;
  /** Self time in percent of the time the process was busy (not idle). */
  selfPercent: number;
}

export interface ProfileSummary {
  durationMs: number;
  /** Time not spent idle (waiting for I/O), in ms. */
  busyMs: number;
  functions: FunctionTime[];
  /** Self time summed per owner, busiest first, in percent of busy time. */
  owners: { owner: string; selfMs: number; selfPercent: number }[];
}

const SPECIAL = new Set(['(root)', '(program)', '(idle)', '(garbage collector)']);

/** `…/node_modules/.pnpm/koa@3.0.1/node_modules/koa/lib/x.js` → `koa/lib/x.js`. */
export function shortLocation(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const nodeModules = path.lastIndexOf('/node_modules/');
  if (nodeModules >= 0) return path.slice(nodeModules + '/node_modules/'.length);
  const workspace = /\/((?:services|packages|bench|tests)\/[^/]+\/.*)$/.exec(path);
  return workspace?.[1] ?? path;
}

/** Who a frame belongs to: a dependency (`koa`), a workspace package (`services/gateway`), a
 * Node module (`node:streams`), or V8 itself (`(garbage collector)`, `(native)`). */
export function ownerOf(url: string, functionName: string): string {
  if (url === '') return SPECIAL.has(functionName) ? functionName : '(native)';
  const internal = /^node:(?:internal\/(?:deps\/)?)?([^/]+)/.exec(url);
  if (internal) return `node:${internal[1]}`;
  const path = url.replace(/^file:\/\//, '');
  const nodeModules = path.lastIndexOf('/node_modules/');
  if (nodeModules >= 0) {
    const [scope = '', name = ''] = path.slice(nodeModules + '/node_modules/'.length).split('/');
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  return /\/((?:services|packages|bench|tests)\/[^/]+)\//.exec(path)?.[1] ?? path;
}

function frameName({ functionName, url, lineNumber }: CpuProfile['nodes'][number]['callFrame']) {
  const name = functionName || '(anonymous)';
  return url === '' ? name : `${name} (${shortLocation(url)}:${lineNumber + 1})`;
}

/** The time, in µs, each node of the profile was sampled as the innermost one. */
export function selfTimes(profile: CpuProfile): Map<number, number> {
  // Each sample lasts until the next one (the first delta is the time before the first sample).
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    const duration = profile.timeDeltas[index + 1] ?? 0;
    selfUs.set(id, (selfUs.get(id) ?? 0) + Math.max(0, duration));
  });
  return selfUs;
}

/** Self and total time per function, busiest first, from a `.cpuprofile`. */
export function summariseProfile(profile: CpuProfile): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = selfTimes(profile);

  const functions = new Map<string, { owner: string; self: number; total: number }>();
  const entry = (node: CpuProfile['nodes'][number]) => {
    const name = frameName(node.callFrame);
    let found = functions.get(name);
    if (!found) {
      found = {
        owner: ownerOf(node.callFrame.url, node.callFrame.functionName),
        self: 0,
        total: 0,
      };
      functions.set(name, found);
    }
    return { name, found };
  };
  // Total time of a node: its own samples and all its descendants'. Counted for a function only
  // where it is not already on the stack above, so recursion is not counted twice.
  const onStack = new Map<string, number>();
  const visit = (id: number): number => {
    const node = byId.get(id);
    if (!node) return 0;
    const { name, found } = entry(node);
    const self = selfUs.get(id) ?? 0;
    found.self += self;
    onStack.set(name, (onStack.get(name) ?? 0) + 1);
    let total = self;
    for (const child of node.children ?? []) total += visit(child);
    const depth = (onStack.get(name) ?? 1) - 1;
    onStack.set(name, depth);
    if (depth === 0) found.total += total;
    return total;
  };
  const childIds = new Set(profile.nodes.flatMap((node) => node.children ?? []));
  let allUs = 0;
  for (const node of profile.nodes) if (!childIds.has(node.id)) allUs += visit(node.id);

  const idleUs = functions.get('(idle)')?.self ?? 0;
  const busyUs = Math.max(1, allUs - idleUs);
  const ms = (us: number) => Math.round(us / 100) / 10;
  const percent = (us: number) => Math.round((us / busyUs) * 1000) / 10;
  const list = [...functions]
    .filter(([name]) => name !== '(idle)' && name !== '(root)')
    .map(([name, { owner, self, total }]) => ({
      name,
      owner,
      selfMs: ms(self),
      totalMs: ms(total),
      selfPercent: percent(self),
    }))
    .sort((a, b) => b.selfMs - a.selfMs);
  const owners = new Map<string, number>();
  for (const [name, { owner, self }] of functions) {
    if (name !== '(idle)' && name !== '(root)') owners.set(owner, (owners.get(owner) ?? 0) + self);
  }
  return {
    durationMs: ms(profile.endTime - profile.startTime),
    busyMs: ms(busyUs),
    functions: list,
    owners: [...owners]
      .map(([owner, self]) => ({ owner, selfMs: ms(self), selfPercent: percent(self) }))
      .sort((a, b) => b.selfMs - a.selfMs),
  };
}

/** The summary as text: the busiest owners, then the top functions by self time. */
export function formatSummary(summary: ProfileSummary, top = 30): string {
  const lines = [
    `profile: ${summary.durationMs} ms, busy ${summary.busyMs} ms (${Math.round((summary.busyMs / Math.max(1, summary.durationMs)) * 100)}%)`,
    '',
    'self time by owner (% of busy time):',
    ...summary.owners
      .slice(0, 15)
      .map(
        (o) =>
          `  ${o.selfPercent.toFixed(1).padStart(5)}%  ${o.selfMs.toFixed(1).padStart(8)} ms  ${o.owner}`,
      ),
    '',
    `top ${top} functions by self time (% of busy time, total = with callees):`,
    ...summary.functions
      .slice(0, top)
      .map(
        (f) =>
          `  ${f.selfPercent.toFixed(1).padStart(5)}%  self ${f.selfMs.toFixed(1).padStart(7)} ms  total ${f.totalMs.toFixed(1).padStart(8)} ms  ${f.name}`,
      ),
  ];
  return `${lines.join('\n')}\n`;
}
