import type { InfoObject } from 'openapi3-ts/oas30';
import { apiVersion } from '../api-version.js';

export const documentInfo: InfoObject = {
  title: 'Petstore API',
  version: apiVersion,
  // The repository grants no licence; the document says so rather than leave it unstated.
  license: { name: 'Proprietary' },
  contact: { name: 'Petstore API' },
  description: [
    'A pet shop: a catalogue of pets and categories, orders drawing on stock, accounts with API keys, and a message queue.',
    '',
    '**Versions.** `/v2` is the current version; `/v1`, the previous one, serves the same operations, ' +
      'listed after them, and keeps working. Its `GET /v1/pets/{petId}` is deprecated for `GET /v2/pets/{petId}`. ' +
      '`Location` headers point into `/v2`.',
    '',
    '**Authentication.** Every `/v2` and `/v1` operation except `POST /v2/accounts` (and `POST /v1/accounts`) ' +
      'needs `Authorization: Bearer <API key>`. Creating an account returns its first key, once.',
    '',
    '**Errors.** Every error is JSON `{code, message, status, requestId?, details?}` (the `Error` schema); ' +
      '`status` equals the HTTP status. Each error response of an operation lists the `code`s it can carry, ' +
      'with an example of each.',
    '',
    '**Paths and methods.** A path the API does not have is 404 `route_not_found`; a method a path does not ' +
      'have is 405 `method_not_allowed`, with the methods it has in `Allow` (`OPTIONS` answers 204 with `Allow`).',
    '',
    '**Strict input.** A body property or query parameter the operation does not list, at any depth, is ' +
      'refused with 400 `validation_failed` naming it (`body.stauts`, `query.colour`): request schemas say ' +
      '`additionalProperties: false`. So is a key that starts with `$` or contains `.` anywhere in a body.',
    '',
    '**Pagination.** Lists take `limit` (1–100, default 20) and `cursor`, answer a plain array, ' +
      'and give the next page in a `Link: <…>; rel="next"` header.',
    '',
    '**Rate limits.** Per API key, announced in `RateLimit-*` headers; over it, 429 with `Retry-After`.',
    '',
    'Every response carries `API-Version` (`2.0.0` under `/v2` and outside the versions, `1.0.0` under `/v1`) and `X-Request-Id`.',
  ].join('\n'),
};
