import type { InfoObject } from 'openapi3-ts/oas30';

export const documentInfo: InfoObject = {
  title: 'Petstore API',
  version: '1.0.0',
  description: [
    'A pet shop: a catalogue of pets and categories, orders drawing on stock, accounts with API keys, and a message queue.',
    '',
    '**Authentication.** Every `/v1` operation except `POST /v1/accounts` needs `Authorization: Bearer <API key>`. ' +
      'Creating an account returns its first key, once.',
    '',
    '**Errors.** Every error is JSON `{code, message, status, requestId?, details?}` (the `Error` schema); ' +
      '`status` equals the HTTP status.',
    '',
    '**Pagination.** Lists take `limit` (1–100, default 20) and `cursor`, answer a plain array, ' +
      'and give the next page in a `Link: <…>; rel="next"` header.',
    '',
    '**Rate limits.** Per API key, announced in `RateLimit-*` headers; over it, 429 with `Retry-After`.',
    '',
    'Every response carries `API-Version` and `X-Request-Id`.',
  ].join('\n'),
};
