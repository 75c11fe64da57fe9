import type { ErrorBody } from '@petstore/contract';
import { AppError } from '../app-error.js';
import type { Session, Transaction } from '../transactions.js';
import {
  idOf,
  REPLAYED_HEADER,
  requestHashOf,
  type IdempotencyRecord,
  type IdempotencyRepository,
  type KeyedRequest,
  type StoredResponse,
} from './idempotency-repository.js';

/** What a request answered, `replayed` when an earlier request with its key executed it. */
export interface Executed<T> {
  status: number;
  body: T;
  replayed: boolean;
}

export type Idempotency = ReturnType<typeof createIdempotency>;

/** Encrypts what a key's record keeps, for responses that show a secret once (an API key). */
export interface Sealing {
  seal(text: string): string;
  open(sealed: string): string;
}

/**
 * Refusals that come once a request executed (the resource is missing, in conflict, refers to
 * nothing), remembered under its key like a success; a refusal before it (400, 401, 403) is not.
 */
const REMEMBERED_STATUSES = new Set([404, 409, 422]);

const isUnavailable = (error: unknown) =>
  error instanceof AppError && error.code === 'service_unavailable';

type Outcome = Executed<unknown>;

/** What a refused request answered, to be answered again to every retry with its key. */
export function refusalOf({ code, message, status }: AppError): StoredResponse {
  return { status, body: { code, message, status } };
}

/** A refusal the work gave, carried out of its transaction, which it aborts. */
class Refused extends Error {
  constructor(readonly refusal: AppError) {
    super(refusal.message);
  }
}

/**
 * What a key is bound to besides its account and body: the method and the path, ids included,
 * the same in every version (`POST /webhooks/wh_1/secret`). Takes a request or a contract route.
 */
export function operationOf({
  method,
  path,
}: {
  method: string;
  path: string;
}): string {
  return `${method} ${path.replace(/^\/v\d+\//, '/')}`;
}

/** The key a request carries, bound to its account, operation and body; undefined without a key. */
export function keyedRequest(
  accountId: string,
  key: string | undefined,
  { operation, body }: Pick<KeyedRequest, 'operation' | 'body'>,
): KeyedRequest | undefined {
  return key === undefined ? undefined : { accountId, key, operation, body };
}

/**
 * `Idempotency-Key` over a service's database: each request with a key executes at most once,
 * and the key answers the outcome of the first that did, refusals included.
 */
export function createIdempotency(
  keys: IdempotencyRepository,
  transaction: Transaction,
  sealing?: Sealing,
) {
  const stored = ({ status, body }: StoredResponse): StoredResponse => ({
    status,
    body: sealing ? sealing.seal(JSON.stringify(body)) : body,
  });
  const opened = ({ status, body }: StoredResponse): StoredResponse => ({
    status,
    body: sealing
      ? (JSON.parse(sealing.open(body as string)) as unknown)
      : body,
  });
  /** The first outcome under the key, for a request that used it again: the same, or 422. */
  function replayed(record: IdempotencyRecord, keyed: KeyedRequest): Outcome {
    if (record.requestHash !== requestHashOf(keyed)) {
      throw new AppError(
        'idempotency_key_reused',
        'this Idempotency-Key was used with another request body or operation',
      );
    }
    return { ...opened(record.response), replayed: true };
  }

  /**
   * In the transaction of `session`: a request whose key has a record answers it again, and `work`
   * executes the others (if any), giving each its response, which is written with its key. Of two
   * requests with one key, the second answers the first's response. Each outcome is told when it
   * is called (a key used with another body throws 422 `idempotency_key_reused`).
   */
  async function executeAll(
    session: Session,
    requests: (KeyedRequest | undefined)[],
    work: (executing: number[]) => Promise<StoredResponse[]>,
  ): Promise<(() => Outcome)[]> {
    const found = await keys.find(
      requests.filter((request) => request !== undefined),
      { session },
    );
    const records = new Map(found.map((record) => [record._id, record]));
    const seen = new Set(records.keys());
    const executing = requests.flatMap((request, index) => {
      if (request === undefined) return [index];
      if (seen.has(idOf(request))) return [];
      seen.add(idOf(request));
      return [index];
    });
    const responses = executing.length > 0 ? await work(executing) : [];
    const answered = new Map(
      executing.map((index, n) => [index, responses[n] as StoredResponse]),
    );
    const executed = [...answered].flatMap(([index, response]) => {
      const keyed = requests[index];
      return keyed ? [{ keyed, response: stored(response) }] : [];
    });
    for (const record of await keys.insert(executed, session)) {
      records.set(record._id, record);
    }
    return requests.map((request, index) => {
      const response = answered.get(index);
      if (response) return () => ({ ...response, replayed: false });
      const keyed = request as KeyedRequest;
      const record = records.get(idOf(keyed)) as IdempotencyRecord;
      return () => replayed(record, keyed);
    });
  }

  /** In one transaction: the key's record answered again, or `respond`'s outcome stored with it. */
  async function once(
    keyed: KeyedRequest,
    respond: (session: Session) => Promise<StoredResponse>,
  ): Promise<Outcome> {
    const [outcome] = await transaction((session) =>
      executeAll(session, [keyed], async () => [await respond(session)]),
    );
    return (outcome as () => Outcome)();
  }

  /** A stored outcome as answered: a success is returned, a refusal thrown as first answered. */
  function executed<T>({ status, body, replayed }: Outcome): Executed<T> {
    if (status < 400) return { status, body: body as T, replayed };
    const { code, message } = body as ErrorBody;
    const headers = replayed ? { [REPLAYED_HEADER]: 'true' } : undefined;
    throw new AppError(code, message, { headers });
  }

  /**
   * A transaction that could not commit in time: when the database answers, it was waiting on
   * another request with the key (whose outcome is answered once it committed), else it is down.
   */
  async function afterTimeout<T>(
    keyed: KeyedRequest,
    unavailable: unknown,
  ): Promise<Executed<T>> {
    // Briefly: a client is waiting, and a database that is down is answered 503 at once.
    const [record] = await keys.find([keyed], { timeoutMS: 500 }).catch(() => {
      throw unavailable;
    });
    if (record) return executed<T>(replayed(record, keyed));
    throw new AppError(
      'conflict',
      'a request with this Idempotency-Key is still in progress; retry it later',
    );
  }

  return {
    /**
     * Runs `work` in one transaction with the key's record: a record there answers again (another
     * body: 422 `idempotency_key_reused`); else `work` runs and its outcome is written with it.
     * Concurrent requests with one key conflict on the record, and MongoDB commits only one: the
     * others run again and find it. A refusal `work` throws aborts its writes and is stored alone.
     */
    async run<T extends object>(
      keyed: KeyedRequest | undefined,
      work: (session: Session) => Promise<{ status: number; body: T }>,
    ): Promise<Executed<T>> {
      if (!keyed) return { ...(await transaction(work)), replayed: false };
      try {
        const outcome = await once(keyed, (session) =>
          work(session).catch((error: unknown) => {
            const remembered =
              error instanceof AppError &&
              REMEMBERED_STATUSES.has(error.status);
            throw remembered ? new Refused(error) : error;
          }),
        );
        return executed<T>(outcome);
      } catch (error) {
        if (isUnavailable(error)) return afterTimeout<T>(keyed, error);
        if (!(error instanceof Refused)) throw error;
        const refusal = refusalOf(error.refusal);
        const outcome = await once(keyed, () => Promise.resolve(refusal));
        // The first to execute gets its refusal as it was thrown, details included.
        if (!outcome.replayed) throw error.refusal;
        return executed<T>(outcome);
      }
    },

    /**
     * `run` for requests executed together in one transaction: `work` executes those whose key
     * has no record, in order, and answers each, refusals included; it writes nothing for a refusal.
     * Each request gets its own outcome, answered or thrown when it is called.
     */
    async runMany<T>(
      requests: (KeyedRequest | undefined)[],
      work: (
        session: Session,
        executing: number[],
      ) => Promise<StoredResponse[]>,
    ): Promise<(() => Executed<T> | Promise<Executed<T>>)[]> {
      try {
        const outcomes = await transaction((session) =>
          executeAll(session, requests, (executing) =>
            work(session, executing),
          ),
        );
        return outcomes.map((outcome) => () => executed<T>(outcome()));
      } catch (error) {
        return requests.map((keyed) => async () => {
          if (keyed && isUnavailable(error))
            return afterTimeout<T>(keyed, error);
          throw error;
        });
      }
    },

    /** What the key answered before, outside any transaction; undefined when it is unused. */
    async replay<T>(keyed: KeyedRequest): Promise<Executed<T> | undefined> {
      const [record] = await keys.find([keyed]);
      return record && executed<T>(replayed(record, keyed));
    },
  };
}
