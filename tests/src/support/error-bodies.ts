import type { ErrorCode } from '@petstore/contract';
import { apiVersion, errorStatus } from '@petstore/contract';
import { expect } from 'vitest';

/** The body every error answers with, for `toEqual`/`toMatchObject`: API.md's Error shape. */
export function errorBody(code: ErrorCode) {
  return expect.objectContaining({
    code,
    status: errorStatus[code],
    message: expect.any(String) as string,
    requestId: expect.any(String) as string,
  }) as unknown;
}

/** An answer as a test reads it: a typed client's result, or a `fetch` response once read. */
export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** Reads a `fetch` response: its body parsed as JSON when it is JSON, else as text. */
export async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown = text;
  if (/^application\/json\b/.test(response.headers.get('content-type') ?? '')) {
    body = JSON.parse(text) as unknown;
  }
  return { status: response.status, headers: response.headers, body };
}

/**
 * Checks everything API.md promises of an error answer: the status of `code`, the Error body
 * from the catalogue, `Content-Type: application/json`, `API-Version`, and an `X-Request-Id`
 * that the body's `requestId` repeats.
 */
export function expectError(answer: Answer, code: ErrorCode): void {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status: errorStatus[code],
    body: errorBody(code),
  });
  expect(answer.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
  expect(answer.headers.get('api-version')).toBe(apiVersion);
  const requestId = answer.headers.get('x-request-id');
  expect(requestId).toEqual(expect.any(String));
  expect((answer.body as { requestId?: unknown }).requestId).toBe(requestId);
}
