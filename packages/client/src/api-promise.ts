/** A result with the response that carried it. */
export interface WithResponse<T> {
  data: T;
  /** The fetch `Response`: `status`, `headers` (`RateLimit-Remaining` among them), `url`. Its body is read already. */
  response: Response;
}

/**
 * What every method that sends a request returns: a Promise of the result, which also gives the
 * response itself with `withResponse()`.
 *
 * @example
 * const { data, response } = await client.pets.create(pet).withResponse();
 * console.log(response.status, response.headers.get('ratelimit-remaining'));
 */
export class ApiPromise<T> extends Promise<T> {
  // then, catch and finally make plain Promises, not ApiPromises without an answer.
  static override get [Symbol.species]() {
    return Promise;
  }

  readonly #answer: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(answer: Promise<WithResponse<T>>) {
    // The base promise is never used: every way of reading this one goes to `answer`.
    super((resolve) => {
      resolve(undefined as T);
    });
    this.#answer = answer;
  }

  /** The result with the response it came in. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#answer;
  }

  #parsed(): Promise<T> {
    this.#data ??= this.#answer.then(({ data }) => data);
    return this.#data;
  }

  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#parsed().then(onfulfilled, onrejected);
  }

  override catch<R = never>(
    onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null,
  ): Promise<T | R> {
    return this.#parsed().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#parsed().finally(onfinally);
  }
}
