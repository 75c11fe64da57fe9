import type { ZodError } from 'zod';

/** One failed check of a request or response value: where it is and what is wrong. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/**
 * Flattens zod issues to `{ path: 'body.quantity', message }`, the path starting at `part`; a
 * property or parameter a strict schema does not list is named in the path of an issue of its own.
 */
export function toValidationIssues(
  part: string,
  error: ZodError,
): ValidationIssue[] {
  return error.issues.flatMap((issue) => {
    const at = [part, ...issue.path];
    if (issue.code !== 'unrecognized_keys')
      return [{ path: at.join('.'), message: issue.message }];
    return issue.keys.map((key) => ({
      path: [...at, key].join('.'),
      message: 'unknown parameter',
    }));
  });
}

const describe = (issues: ValidationIssue[]) =>
  issues.map(({ path, message }) => `${path}: ${message}`).join('; ');

/** A request part does not match the contract. `status`/`expose` follow Koa's http-errors. */
export class RequestValidationError extends Error {
  override readonly name = 'RequestValidationError';
  readonly code = 'validation_failed';
  readonly status = 400;
  readonly expose = true;

  constructor(readonly details: ValidationIssue[]) {
    super(describe(details));
  }
}

/** A handler sent something its contract does not allow: a bug in the service, never exposed. */
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
      `[ts-rest-koa] response of ${route} does not match the contract: ${describe(details)}`,
    );
  }
}

/** A known path asked with another method; `headers` lets Koa's default error handler send Allow. */
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
