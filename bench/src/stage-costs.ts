import { ownerOf, selfTimes, type CpuProfile } from './profile-summary.js';

/** The stages a request goes through, in the order the table lists them. */
export const STAGES = [
  'request id',
  'logging',
  'metrics',
  'tracing',
  'routing',
  'authentication',
  'rate limits',
  'validation',
  'handler',
  'database driver',
  'proxy (undici)',
  'serialisation',
  'node:http and sockets',
  'framework (koa)',
  'garbage collector',
  'other',
] as const;
export type Stage = (typeof STAGES)[number];

type Frame = CpuProfile['nodes'][number]['callFrame'];

// A frame's stage by the file it is in; `undefined` for code that belongs to whatever called it
// (V8 built-ins, Node's own modules) and so takes the stage of the nearest caller that has one.
const BY_FILE: [RegExp, Stage][] = [
  [/service-kit\/dist\/request-id\.js/, 'request id'],
  [
    /\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(?:pino|pino-std-serializers|sonic-boom|fast-redact|thread-stream)\//,
    'logging',
  ],
  [/service-kit\/dist\/logger\.js/, 'logging'],
  [
    /\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(?:prom-client|tdigest|bintrees)\//,
    'metrics',
  ],
  [/\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?@opentelemetry\//, 'tracing'],
  [/service-kit\/dist\/telemetry\/tracing\.js/, 'tracing'],
  [/service-kit\/dist\/telemetry\/telemetry\.js/, 'metrics'],
  [
    /\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(?:@koa\/router|path-to-regexp)\//,
    'routing',
  ],
  [/ts-rest-koa\/dist\/contract-router\.js/, 'routing'],
  [/gateway\/dist\/routing\//, 'routing'],
  [/gateway\/dist\/auth\//, 'authentication'],
  [/gateway\/dist\/rate-limits\//, 'rate limits'],
  [/\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(?:zod|@ts-rest)\//, 'validation'],
  [/ts-rest-koa\/dist\/validate-request\.js/, 'validation'],
  [/ts-rest-koa\/dist\/response\.js/, 'serialisation'],
  [/\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(?:mongodb|bson)\//, 'database driver'],
  [/\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?undici\//, 'proxy (undici)'],
  [/gateway\/dist\/proxy\//, 'proxy (undici)'],
  [/services\/[^/]+\/dist\//, 'handler'],
  [
    /\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(?:koa|koa-compose|delegates|@koa|only|statuses|vary|type-is|content-type|mime-types|accepts|negotiator|fresh|encodeurl|escape-html|cookies|http-errors|on-finished|destroy|raw-body)\//,
    'framework (koa)',
  ],
  [/ts-rest-koa\/dist\//, 'framework (koa)'],
  [/service-kit\/dist\//, 'framework (koa)'],
];

/** Node's own HTTP and socket code, which sending and receiving run through. */
const NODE_IO =
  /^node:(?:_http_|net|stream|internal\/(?:streams|stream_base_commons|http|net|js_stream_socket))/;

function stageOfFrame({ functionName, url }: Frame): Stage | 'node io' | undefined {
  if (url === '') {
    if (functionName === '(garbage collector)') return 'garbage collector';
    if (functionName === 'stringify') return 'serialisation';
    return functionName === '(program)' ? 'other' : undefined;
  }
  if (NODE_IO.test(url)) return 'node io';
  if (url.startsWith('node:')) return undefined;
  for (const [pattern, stage] of BY_FILE) if (pattern.test(url)) return stage;
  return ownerOf(url, functionName) === '(native)' ? undefined : 'other';
}

/**
 * The stage of one sample: that of the innermost frame that has one. Node's HTTP and socket code
 * counts as sending and receiving when the framework or nothing called it, and as the caller's
 * stage otherwise (the driver's and undici's own sockets).
 */
function stageOfStack(stack: Frame[]): Stage {
  let sawNodeIo = false;
  for (const frame of stack) {
    const stage = stageOfFrame(frame);
    if (stage === undefined) continue;
    if (stage === 'node io') {
      sawNodeIo = true;
      continue;
    }
    if (sawNodeIo && (stage === 'framework (koa)' || stage === 'other')) {
      return 'node:http and sockets';
    }
    return stage;
  }
  return sawNodeIo ? 'node:http and sockets' : 'other';
}

const startingUp = ({ url }: Frame) => url.startsWith('node:internal/modules/');

/** Each stage's share of the time the process was busy (not idle, not loading modules), in %. */
export function stageShares(profile: CpuProfile): Record<Stage, number> {
  const parents = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parents.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  // Called once per node: the samples are already summed by node.
  const stageOf = (id: number): Stage | null => {
    const stack: Frame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame) stack.push(frame);
    }
    const leaf = stack[0]?.functionName;
    // Idle time, and loading modules at start-up, are no request's.
    return leaf === '(idle)' || leaf === '(root)' || stack.some(startingUp)
      ? null
      : stageOfStack(stack);
  };
  const totals = Object.fromEntries(STAGES.map((stage) => [stage, 0])) as Record<Stage, number>;
  let busy = 0;
  for (const [id, duration] of selfTimes(profile)) {
    const stage = stageOf(id);
    if (stage === null) continue;
    totals[stage] += duration;
    busy += duration;
  }
  for (const stage of STAGES) totals[stage] = busy === 0 ? 0 : (totals[stage] / busy) * 100;
  return totals;
}

/** A stage's CPU µs per request: its share of the profile times what a request cost unprofiled. */
export function stageMicros(
  shares: Record<Stage, number>,
  cpuMicrosPerRequest: number,
): Record<Stage, number> {
  return Object.fromEntries(
    STAGES.map((stage) => [stage, Math.round((shares[stage] / 100) * cpuMicrosPerRequest)]),
  ) as Record<Stage, number>;
}
