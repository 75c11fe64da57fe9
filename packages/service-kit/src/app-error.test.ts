import { errorStatus, ErrorCodeSchema } from '@petstore/contract';
import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.js';

describe('AppError', () => {
  it.each(ErrorCodeSchema.options)('takes the status of %s from the contract', (code) => {
    expect(new AppError(code, 'x').status).toBe(errorStatus[code]);
  });

  it('keeps its code, message, details, headers and cause', () => {
    const cause = new Error('driver says no');
    const error = new AppError('unknown_pet', '[store] pet 7 does not exist', {
      details: [{ path: 'body.petId', message: 'no such pet' }],
      headers: { 'X-Reason': 'x' },
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'AppError',
      code: 'unknown_pet',
      status: 422,
      message: '[store] pet 7 does not exist',
      details: [{ path: 'body.petId', message: 'no such pet' }],
      headers: { 'X-Reason': 'x' },
      cause,
    });
  });
});
