// The pets service as the store sees it: whether a pet exists, and setting its status.
import { createInternalClient, type PetStatus } from '@petstore/contract';
import { AppError } from '@petstore/service-kit';

export interface PetsAdapterOptions {
  /** Where the pets service listens, e.g. `http://127.0.0.1:3001`. */
  baseUrl: string;
  internalToken: string;
  /** How long one call may take before pets counts as unreachable. */
  timeoutMs: number;
}

/** What the pets service answered when a status was pushed. */
export type PushResult = 'delivered' | 'pet_not_found';

/** The store's only view of the pets service. */
export interface PetsAdapter {
  /** True when pets knows the pet, false when it answers 404; throws PetsUnavailableError else. */
  petExists(petId: number, requestId?: string): Promise<boolean>;
  /** Sets the pet's status in pets; throws PetsUnavailableError when pets cannot take it now. */
  pushStatus(petId: number, status: PetStatus, requestId?: string): Promise<PushResult>;
}

/**
 * The pets service could not be asked: unreachable, too slow, or an answer other than the
 * contract's 200/404. Answers 503 `service_unavailable`; what happened is kept as `cause`.
 */
export class PetsUnavailableError extends AppError {
  constructor(what: string, cause?: unknown) {
    super('service_unavailable', 'the pets service is unavailable', {
      cause: new Error(`[pets] ${what}`, { cause }),
    });
  }
}

export function createPetsAdapter({
  baseUrl,
  internalToken,
  timeoutMs,
}: PetsAdapterOptions): PetsAdapter {
  const clientFor = (requestId?: string) =>
    createInternalClient({ baseUrl, internalToken, requestId });
  const fetchOptions = () => ({ signal: AbortSignal.timeout(timeoutMs) });

  async function ask<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw new PetsUnavailableError(`${what}: no answer`, error);
    }
  }

  return {
    async petExists(petId, requestId) {
      // Pets issues ids from a counter, never above 2^53 − 1. A larger path id (up to int64's
      // maximum) reaches here rounded, and its decimal form may be past int64, which pets would
      // refuse with 400: such a pet simply does not exist.
      if (!Number.isSafeInteger(petId)) return false;
      const what = `GET /internal/pets/${petId}`;
      const response = await ask(what, () =>
        clientFor(requestId).pets.getPet({
          params: { petId: String(petId) },
          fetchOptions: fetchOptions(),
        }),
      );
      if (response.status === 200) return true;
      if (response.status === 404) return false;
      throw new PetsUnavailableError(`${what}: answered ${response.status}`, response.body);
    },

    async pushStatus(petId, status, requestId) {
      const what = `PUT /internal/pets/${petId}/status`;
      const response = await ask(what, () =>
        clientFor(requestId).pets.setPetStatus({
          params: { petId: String(petId) },
          body: { status },
          fetchOptions: fetchOptions(),
        }),
      );
      if (response.status === 200) return 'delivered';
      if (response.status === 404) return 'pet_not_found';
      throw new PetsUnavailableError(`${what}: answered ${response.status}`, response.body);
    },
  };
}
