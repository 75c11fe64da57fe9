// The pets service as the store sees it: whether a pet exists, and setting its status.
import {
  createInternalClient,
  type InternalClient,
  type PetStatus,
  type PetStatusEntry,
} from '@petstore/contract';
import { AppError, inSpan, SpanKind, withTraceContext } from '@petstore/service-kit';

export interface PetsAdapterOptions {
  /** Where the pets service listens, e.g. `http://127.0.0.1:3001`, or each of its replicas. */
  baseUrls: string[];
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
  /**
   * Sets the pet's status in pets unless pets holds a newer `version` already; throws
   * PetsUnavailableError when pets cannot take it now.
   */
  pushStatus(
    petId: number,
    status: PetStatus,
    version: number,
    requestId?: string,
  ): Promise<PushResult>;
  /** The statuses pets holds for those of `petIds` (at most 100) that exist. */
  statuses(petIds: number[]): Promise<PetStatusEntry[]>;
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

/**
 * The pets service through its typed internal client. With several replicas, calls go to each in
 * turn, and one that does not answer is passed over for the next: every call here is safe to
 * repeat (reads, and a status push that pets keeps only over an older version).
 */
export function createPetsAdapter({
  baseUrls,
  internalToken,
  timeoutMs,
}: PetsAdapterOptions): PetsAdapter {
  let turn = 0;
  const fetchOptions = () => ({ signal: AbortSignal.timeout(timeoutMs) });

  async function ask<T>(
    what: string,
    call: (client: InternalClient) => Promise<T>,
    requestId?: string,
  ): Promise<T> {
    const first = turn++;
    return inSpan(
      what,
      { kind: SpanKind.CLIENT, attributes: { 'peer.service': 'pets' } },
      async () => {
        let failure: unknown;
        for (let attempt = 0; attempt < baseUrls.length; attempt++) {
          const baseUrl = baseUrls[(first + attempt) % baseUrls.length] ?? '';
          const headers = withTraceContext<Record<string, string>>({});
          try {
            return await call(createInternalClient({ baseUrl, internalToken, requestId, headers }));
          } catch (error) {
            failure = error;
          }
        }
        throw new PetsUnavailableError(`${what}: no answer`, failure);
      },
    );
  }

  return {
    async petExists(petId, requestId) {
      // Pets issues ids from a counter, never above 2^53 − 1. A larger path id (up to int64's
      // maximum) reaches here rounded, and its decimal form may be past int64, which pets would
      // refuse with 400: such a pet simply does not exist.
      if (!Number.isSafeInteger(petId)) return false;
      const what = `GET /internal/pets/${petId}`;
      const response = await ask(
        what,
        (client) =>
          client.pets.getPet({ params: { petId: String(petId) }, fetchOptions: fetchOptions() }),
        requestId,
      );
      if (response.status === 200) return true;
      if (response.status === 404) return false;
      throw new PetsUnavailableError(`${what}: answered ${response.status}`, response.body);
    },

    async pushStatus(petId, status, version, requestId) {
      const what = `PUT /internal/pets/${petId}/status`;
      const response = await ask(
        what,
        (client) =>
          client.pets.setPetStatus({
            params: { petId: String(petId) },
            body: { status, version },
            fetchOptions: fetchOptions(),
          }),
        requestId,
      );
      if (response.status === 200) return 'delivered';
      if (response.status === 404) return 'pet_not_found';
      throw new PetsUnavailableError(`${what}: answered ${response.status}`, response.body);
    },

    async statuses(petIds) {
      const what = 'GET /internal/pet-statuses';
      const response = await ask(what, (client) =>
        client.pets.listPetStatuses({
          query: { petId: petIds.map(String) },
          fetchOptions: fetchOptions(),
        }),
      );
      if (response.status === 200) return response.body;
      throw new PetsUnavailableError(`${what}: answered ${response.status}`, response.body);
    },
  };
}
