/** Resolves when a part the service depends on answers; rejects (or hangs) when it does not. */
export type ReadinessCheck = () => Promise<unknown>;

export interface ReadinessFailure {
  name: string;
  /** Safe to show a client: says what went wrong, never the underlying error. */
  reason: string;
  error?: unknown;
}

async function probe(
  name: string,
  check: ReadinessCheck,
  timeoutMs: number,
): Promise<ReadinessFailure | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<ReadinessFailure>((resolve) => {
    timer = setTimeout(
      () => resolve({ name, reason: `no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  const answered = Promise.resolve()
    .then(check)
    .then(
      () => undefined,
      (error: unknown) => ({ name, reason: 'unavailable', error }),
    );
  try {
    return await Promise.race([answered, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every check at once, each bounded by `timeoutMs`; returns the ones that failed. */
export async function runReadinessChecks(
  checks: Record<string, ReadinessCheck>,
  timeoutMs: number,
): Promise<ReadinessFailure[]> {
  const outcomes = await Promise.all(
    Object.entries(checks).map(([name, check]) => probe(name, check, timeoutMs)),
  );
  return outcomes.filter((outcome) => outcome !== undefined);
}
