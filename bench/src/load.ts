import autocannon from 'autocannon';
import { cpuBetween, cpuByRole, cpuMicrosPerRequest } from './process-cpu.js';

/** One kind of request, sent again and again. */
export interface Target {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

/** What one measured run gave. */
export interface Measurement {
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  requests: number;
  /** Answers other than 2xx, and connection errors or timeouts: any of them spoils the run. */
  non2xx: number;
  errors: number;
  /** Status code → count, to see what went wrong when non2xx > 0. */
  statusCodes: Record<string, number>;
  durationSeconds: number;
  /**
   * CPU time per answered request, in microseconds, of each process in the run (the gateway, the
   * services, the database, the load generator), from the operating system's accounting: steadier
   * than requests/s on a busy machine. Linux only; elsewhere only the load generator.
   */
  cpuMicrosPerRequest: Record<string, number>;
}

function run(target: Target, connections: number, seconds: number) {
  return autocannon({
    url: target.url,
    method: target.method,
    headers: target.headers,
    body: target.body,
    connections,
    duration: seconds,
    // One request at a time per connection, as an HTTP/1.1 client without pipelining sends them.
    pipelining: 1,
    timeout: 10,
  });
}

/** Sends the target load for `seconds` and drops the result. */
export async function warmUp(target: Target, connections: number, seconds: number): Promise<void> {
  if (seconds > 0) await run(target, connections, seconds);
}

/**
 * Warms the target up (its result is dropped), then measures it; `onMeasuring` is called as the
 * measured part starts.
 */
export async function measure(
  target: Target,
  options: LoadOptions,
  onMeasuring?: () => void,
): Promise<Measurement> {
  await warmUp(target, options.connections, options.warmupSeconds);
  const cpuBefore = await cpuByRole();
  onMeasuring?.();
  const result = await run(target, options.connections, options.durationSeconds);
  const cpu = cpuBetween(cpuBefore, await cpuByRole());
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count ?? 0]),
  );
  return {
    requestsPerSecond: Math.round(result.requests.total / result.duration),
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes,
    durationSeconds: Math.round(result.duration * 10) / 10,
    cpuMicrosPerRequest: cpuMicrosPerRequest(cpu, result.requests.total),
  };
}
