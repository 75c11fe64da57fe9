import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

/** One request of a bounded run. */
export interface BoundedRequest {
  path: string;
  method: 'GET' | 'POST' | 'PUT';
  headers: Record<string, string>;
  body?: string;
}

/** Every bounded run stops at whichever comes first. */
export interface Bounds {
  /** Requests to send at most. */
  count: number;
  /** Seconds to send them in at most. */
  seconds: number;
}

/** What a bounded run gave. */
export interface BoundedRun {
  /** Requests answered 2xx. */
  ok: number;
  /** Answers other than 2xx by status, and `error` for requests that got no answer. */
  failed: Record<string, number>;
  /** From the first request to the last answer. */
  seconds: number;
  /** Each answered request's latency, in ms, in the order they were sent. */
  latenciesMs: number[];
}

/**
 * Sends `request(i)` for i = 0, 1, … from `clients` clients, each waiting for its answer before
 * it sends the next (one connection each, kept alive), until `bounds.count` requests are sent or
 * `bounds.seconds` have passed. A request that fails is counted, not retried.
 */
export async function sendBounded(
  origin: string,
  clients: number,
  bounds: Bounds,
  request: (index: number) => BoundedRequest,
): Promise<BoundedRun> {
  const pool = new Pool(origin, {
    connections: clients,
    pipelining: 1,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  const run: BoundedRun = { ok: 0, failed: {}, seconds: 0, latenciesMs: [] };
  const started = performance.now();
  const deadline = started + bounds.seconds * 1000;
  let next = 0;
  const client = async () => {
    while (next < bounds.count && performance.now() < deadline) {
      const { path, method, headers, body } = request(next++);
      const sent = performance.now();
      try {
        const answer = await pool.request({ path, method, headers, body });
        await answer.body.dump();
        run.latenciesMs.push(performance.now() - sent);
        if (answer.statusCode >= 200 && answer.statusCode < 300) run.ok++;
        else run.failed[answer.statusCode] = (run.failed[answer.statusCode] ?? 0) + 1;
      } catch {
        run.failed.error = (run.failed.error ?? 0) + 1;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: clients }, client));
  } finally {
    run.seconds = (performance.now() - started) / 1000;
    await pool.close();
  }
  return run;
}

/** Adds the counts of `more` (status → times) to those of `into`, and returns `into`. */
export function addCounts(
  into: Record<string, number>,
  more: Record<string, number>,
): Record<string, number> {
  for (const [status, times] of Object.entries(more)) into[status] = (into[status] ?? 0) + times;
  return into;
}

/** The latency below which `share` (0–1) of the requests were answered, in ms. */
export function percentile(latenciesMs: number[], share: number): number {
  if (latenciesMs.length === 0) return Number.NaN;
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}
