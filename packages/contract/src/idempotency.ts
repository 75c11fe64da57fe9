import { z } from './zod.js';
import { lengthInCodePoints } from './text.js';
import { at, type RouteMetadata } from './contract-operations.js';

const IdempotencyKeySchema = lengthInCodePoints(z.string(), {
  min: 1,
  max: 255,
}).openapi({
  description:
    'Retrying with the same key and body returns the first answer again, with `Idempotent-Replayed: true`, and creates nothing more; the same key with another body or operation is 422 `idempotency_key_reused`, and while the first is still in progress, a retry is 409 `conflict`. Keys are kept at least 24 hours.',
  example: '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f',
});

/** A public `POST` at `path`: `at()` with the optional `Idempotency-Key` it honours. */
export function post<P extends string>(path: P, metadata: RouteMetadata) {
  return {
    ...at<'POST', P>(`POST ${path}`, metadata),
    headers: z.object({ 'idempotency-key': IdempotencyKeySchema.optional() }),
  };
}
