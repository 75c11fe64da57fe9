import type { ErrorCode } from '@petstore/contract';
import { apiVersions, errorStatus } from '@petstore/contract';
import { expect } from 'vitest';
import type { HttpAnswer } from '@petstore/testkit';

/** The body every error answers with, for `toEqual`/`toMatchObject`: API.md's Error shape. */
export function errorBody(code: ErrorCode) {
  return expect.objectContaining({
    code,
    status: errorStatus[code],
    message: expect.any(String) as string,
    requestId: expect.any(String) as string,
  }) as unknown;
}

/**
 * Checks everything API.md promises of an error answer: the status of `code`, the Error body
 * from the catalogue, `Content-Type: application/json`, an `API-Version` (the path's, which the
 * answer does not say), and an `X-Request-Id`
 * that the body's `requestId` repeats.
 */
export function expectError(answer: HttpAnswer, code: ErrorCode): void {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status: errorStatus[code],
    body: errorBody(code),
  });
  expect(answer.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
  expect(Object.values(apiVersions)).toContain(
    answer.headers.get('api-version'),
  );
  const requestId = answer.headers.get('x-request-id');
  expect(requestId).toEqual(expect.any(String));
  expect((answer.body as { requestId?: unknown }).requestId).toBe(requestId);
}
