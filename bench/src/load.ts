import autocannon from 'autocannon';

/** A request as autocannon sends it. */
export interface Sent {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/** How much load: for `seconds`, or until `amount` requests were answered (at most `seconds`). */
export interface Load {
  connections: number;
  seconds: number;
  amount?: number;
}

export interface Measurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers other than 2xx, and errors or timeouts: any of them spoils the run. */
  non2xx: number;
  errors: number;
  /** The webhook scenario's figures, from its answering receiver. */
  deliveriesPerSecond?: number;
  lagP50Ms?: number;
  lagP99Ms?: number;
  missing?: number;
}

/** Sends `sent` under `load` with autocannon; `onAnswer` sees each answer's status and body. */
export async function send(
  sent: Sent,
  { connections, seconds, amount }: Load,
  onAnswer?: (status: number, body: string) => void,
): Promise<Measurement> {
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        ...sent,
        connections,
        duration: seconds,
        amount,
        timeout: 10,
        requests: onAnswer
          ? [
              {
                onResponse: (status, body) => {
                  onAnswer(status, body);
                },
              },
            ]
          : undefined,
      },
      (error, finished) => {
        clearTimeout(timer);
        if (error)
          reject(error instanceof Error ? error : new Error(String(error)));
        else resolve(finished);
      },
    );
    // `amount` overrides `duration` in autocannon: the time bound is kept here.
    const timer = setTimeout(
      () => {
        instance.stop();
      },
      seconds * 1000 + 1000,
    );
  });
  return {
    requestsPerSecond: Math.round(result.requests.total / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
