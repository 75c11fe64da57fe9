import type { Replicas } from './replicas.js';

/** The system or undici code of a failed request: on the error, or on its cause (`fetch`). */
export function errorCode(error: unknown): string | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  for (const failure of [error, cause]) {
    const code = (failure as { code?: unknown } | null | undefined)?.code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

export interface FailoverOptions<Replica, Result> {
  replicas: Replicas<Replica>;
  send: (replica: Replica) => Promise<Result>;
  /**
   * Whether the failure may be sent to another replica: only when the request cannot have reached
   * the service, or when it does no harm twice.
   */
  mayTryAgain: (error: unknown) => boolean;
  /** At most this many attempts; by default one per replica. */
  attempts?: number;
}

/**
 * Sends to the next replica in turn, and on a failure `mayTryAgain` allows, to another one. A
 * replica that refused the connection is avoided for a while. Throws the last failure.
 */
export async function withFailover<Replica, Result>(
  options: FailoverOptions<Replica, Result>,
): Promise<Result> {
  const {
    replicas,
    send,
    mayTryAgain,
    attempts = replicas.all.length,
  } = options;
  const tried = new Set<Replica>();
  for (let attempt = 1; ; attempt++) {
    const replica = replicas.pick(tried);
    try {
      return await send(replica);
    } catch (error) {
      if (errorCode(error) === 'ECONNREFUSED') replicas.avoid(replica);
      if (attempt >= attempts || !mayTryAgain(error)) throw error;
      tried.add(replica);
    }
  }
}
