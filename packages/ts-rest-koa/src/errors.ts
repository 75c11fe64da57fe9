/** One failed check of a request or response value: where it is and what is wrong. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/**
 * A request whose path, query, headers or body does not match the contract.
 * `status`/`expose` follow Koa's http-errors convention, so a plain Koa app answers 400 too.
 */
export class RequestValidationError extends Error {
  override readonly name = 'RequestValidationError';
  readonly code = 'validation_failed';
  readonly status = 400;
  readonly expose = true;

  constructor(readonly details: ValidationIssue[]) {
    super(details.map((issue) => `${issue.path}: ${issue.message}`).join('; '));
  }
}

/** A handler answered something its contract does not allow: a bug in the service, never exposed. */
export class ResponseValidationError extends Error {
  override readonly name = 'ResponseValidationError';
  readonly code = 'internal_error';
  readonly status = 500;
  readonly expose = false;

  constructor(
    readonly route: string,
    readonly details: ValidationIssue[],
  ) {
    super(
      `[ts-rest-koa] response of ${route} does not match the contract: ${details
        .map((issue) => `${issue.path}: ${issue.message}`)
        .join('; ')}`,
    );
  }
}

/**
 * A known path asked with a method the contract does not define for it.
 * `headers` carries `Allow` the http-errors way, so Koa's default error handler sends it too.
 */
export class MethodNotAllowedError extends Error {
  override readonly name = 'MethodNotAllowedError';
  readonly code = 'method_not_allowed';
  readonly status = 405;
  readonly expose = true;
  readonly headers: { Allow: string };

  constructor(
    method: string,
    readonly allow: string[],
  ) {
    super(`${method} is not allowed here; allowed: ${allow.join(', ')}`);
    this.headers = { Allow: allow.join(', ') };
  }
}
