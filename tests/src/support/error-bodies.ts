import type { ErrorCode } from '@petstore/contract';
import { errorStatus } from '@petstore/contract';
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
