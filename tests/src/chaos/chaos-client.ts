import { setTimeout as sleep } from 'node:timers/promises';
import { callHttp, type HttpCallOptions } from '@petstore/testkit';
import type { Prng } from '../support/prng.js';

/** What a request of the load is for, to judge its answers. */
export type Operation =
  'order' | 'cancel' | 'complete' | 'message' | 'readOrder' | 'readInventory';

/**
 * What came back from one attempt: an HTTP answer, or none. `refused` means the connection was
 * refused, so the request cannot have reached anything; any other missing answer (a reset, the
 * guard running out) leaves its effect unknown.
 */
export type Reply =
  | { answered: true; status: number; body: unknown; contentType: string }
  | { answered: false; refused: boolean; reason: string };

/** One attempt of one request, as sent and as answered. */
export interface Exchange {
  operation: Operation;
  method: string;
  path: string;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
  gateway: string;
  /** Milliseconds since the load began. */
  at: number;
  reply: Reply;
}

export interface RequestSpec extends Pick<HttpCallOptions, 'body' | 'headers'> {
  method: string;
  path: string;
  apiKey: string;
}

export interface RetryPolicy {
  /** Whether this reply is worth another attempt. */
  retry: (reply: Reply) => boolean;
  /** Attempts in all, the first included. */
  maxAttempts: number;
}

/** The error `code` of an answer's body, when it has one. */
export function errorCodeOf(reply: Reply): string | undefined {
  if (!reply.answered || typeof reply.body !== 'object' || reply.body === null)
    return undefined;
  const { code } = reply.body as { code?: unknown };
  return typeof code === 'string' ? code : undefined;
}

/** The request never reached anything: safe to send again whatever it does. */
export const refused = (reply: Reply) => !reply.answered && reply.refused;

/**
 * Nobody can know whether the request took effect: no answer (but a refused connection), or the
 * gateway could not finish with a service (502, 503, 504).
 */
export const unknownOutcome = (reply: Reply) =>
  reply.answered ? [502, 503, 504].includes(reply.status) : !reply.refused;

/** Whatever a safe retry may settle: a refused connection or an unknown outcome. */
export const notSettled = (reply: Reply) =>
  refused(reply) || unknownOutcome(reply);

/**
 * The test's HTTP client: spreads requests over the gateways, keeps every attempt, and retries
 * as a careful client does — each retry to the next gateway, after a backoff with jitter.
 */
export class ChaosClient {
  readonly exchanges: Exchange[] = [];
  #turn = 0;

  constructor(
    private readonly gateways: readonly string[],
    /** Past this, an attempt counts as unanswered. */
    private readonly guardMs: number,
    /** When the load began, for `Exchange.at`. */
    private readonly startedAt: number,
  ) {}

  /** Sends `spec` until `policy` stops asking for another attempt; the last reply and its count. */
  async send(
    operation: Operation,
    spec: RequestSpec,
    rng: Prng,
    policy: RetryPolicy = { retry: refused, maxAttempts: 4 },
  ): Promise<{ reply: Reply; attempts: number }> {
    const first = this.#turn++;
    for (let attempt = 1; ; attempt++) {
      const gateway =
        this.gateways[(first + attempt - 1) % this.gateways.length] ?? '';
      const reply = await this.#attempt(operation, spec, gateway, attempt);
      if (attempt >= policy.maxAttempts || !policy.retry(reply))
        return { reply, attempts: attempt };
      // The client's backoff before its next attempt: 100 ms doubling to 1.6 s, with jitter.
      await sleep(
        Math.min(1_600, 100 * 2 ** (attempt - 1)) * (0.5 + rng.next()),
      );
    }
  }

  async #attempt(
    operation: Operation,
    { method, path, ...options }: RequestSpec,
    gateway: string,
    attempt: number,
  ): Promise<Reply> {
    const at = Date.now() - this.startedAt;
    let reply: Reply;
    try {
      const answer = await callHttp(gateway, method, path, {
        ...options,
        signal: AbortSignal.timeout(this.guardMs),
      });
      const contentType = answer.headers.get('content-type') ?? '';
      reply = {
        answered: true,
        status: answer.status,
        body: answer.body,
        contentType,
      };
    } catch (error) {
      reply = unanswered(error, this.guardMs);
    }
    this.exchanges.push({
      operation,
      method,
      path,
      attempt,
      gateway,
      at,
      reply,
    });
    return reply;
  }
}

function unanswered(error: unknown, guardMs: number): Reply {
  if (error instanceof Error && error.name === 'TimeoutError') {
    return {
      answered: false,
      refused: false,
      reason: `no answer within ${guardMs} ms`,
    };
  }
  const cause =
    error instanceof Error
      ? (error.cause as { code?: unknown } | undefined)
      : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : String(error);
  return { answered: false, refused: code === 'ECONNREFUSED', reason: code };
}
