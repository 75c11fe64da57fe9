import type { ZodError } from 'zod';
import type { ValidationIssue } from './errors.js';

/** Flattens zod issues to `{ path: 'body.quantity', message }`, the path starting at the request part. */
export function toValidationIssues(part: string, error: ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({
    path: [part, ...issue.path].join('.'),
    message: issue.message,
  }));
}
