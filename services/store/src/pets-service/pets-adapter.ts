import {
  createInternalClient,
  type InternalClient,
  type PetStatus,
  type PetStatusEntry,
} from '@petstore/contract';
import {
  AppError,
  inSpan,
  Replicas,
  SpanKind,
  withFailover,
  withTraceContext,
} from '@petstore/service-kit';
import { LRUCache } from 'lru-cache';

export interface PetsAdapterOptions {
  baseUrls: string[];
  internalToken: string;
  timeoutMs: number;
}

export type PetsAdapter = ReturnType<typeof createPetsAdapter>;

/** Pets is unreachable, too slow, or responds outside the contract: 503, the reason as `cause`. */
export class PetsUnavailableError extends AppError {
  constructor(what: string, cause?: unknown) {
    super('service_unavailable', 'the pets service is unavailable', {
      cause: new Error(`[pets] ${what}`, { cause }),
    });
  }
}

type Response = { status: number; body: unknown };

// Calls go to each replica in turn, and one that does not respond is passed over for the next:
// every call here is safe to repeat.
export function createPetsAdapter({
  baseUrls,
  internalToken,
  timeoutMs,
}: PetsAdapterOptions) {
  const replicas = new Replicas(baseUrls);

  async function send<R extends Response>(
    what: string,
    call: (
      client: InternalClient,
      fetchOptions: { signal: AbortSignal },
    ) => Promise<R>,
    requestId?: string,
  ): Promise<Extract<R, { status: 200 | 404 }>> {
    const span = {
      kind: SpanKind.CLIENT,
      attributes: { 'peer.service': 'pets' },
    };
    const response = await inSpan(what, span, async () => {
      const sendTo = (baseUrl: string) => {
        const headers = withTraceContext<Record<string, string>>({});
        const client = createInternalClient({
          baseUrl,
          internalToken,
          requestId,
          headers,
        });
        return call(client, { signal: AbortSignal.timeout(timeoutMs) });
      };
      try {
        return await withFailover({
          replicas,
          send: sendTo,
          mayTryAgain: () => true,
        });
      } catch (error) {
        throw new PetsUnavailableError(`${what}: no response`, error);
      }
    });
    if (response.status === 200 || response.status === 404) {
      return response as Extract<R, { status: 200 | 404 }>;
    }
    throw new PetsUnavailableError(
      `${what}: responded ${response.status}`,
      response.body,
    );
  }

  return {
    async petExists(petId: number, requestId?: string): Promise<boolean> {
      // Pets issues ids below 2^53; a larger one (maybe past int64: 400 from pets) does not exist.
      if (!Number.isSafeInteger(petId)) return false;
      const response = await send(
        `GET /internal/pets/${petId}`,
        (client, fetchOptions) =>
          client.pets.getPet({
            params: { petId: String(petId) },
            fetchOptions,
          }),
        requestId,
      );
      return response.status === 200;
    },

    /** Pets keeps the status only over an older `version`. */
    async pushStatus(petId: number, status: PetStatus, version: number) {
      const params = { petId: String(petId) };
      const response = await send(
        `PUT /internal/pets/${petId}/status`,
        (client, fetchOptions) =>
          client.pets.setPetStatus({
            params,
            body: { status, version },
            fetchOptions,
          }),
      );
      return response.status === 200
        ? ('delivered' as const)
        : ('pet_not_found' as const);
    },

    async statuses(petIds: number[]): Promise<PetStatusEntry[]> {
      const response = await send(
        'GET /internal/pet-statuses',
        (client, fetchOptions) =>
          client.pets.listPetStatuses({
            query: { petId: petIds.map(String) },
            fetchOptions,
          }),
      );
      return response.body;
    },
  };
}

export type PetCheck = ReturnType<typeof createPetCheck>;

// Remembers a known pet for `confirmedForMs`. When pets cannot be asked, a pet it has not just
// confirmed is refused (503): a stock entry does not prove the pet still exists.
export function createPetCheck(pets: PetsAdapter, confirmedForMs: number) {
  const confirmed = new LRUCache<number, true>({
    max: 10_000,
    ttl: Math.max(confirmedForMs, 1),
  });
  // `requestId` goes on to pets.
  return async (id: number | bigint, requestId: string): Promise<void> => {
    // Exact for every id pets can have issued; a larger one is past them all.
    const petId = Number(id);
    if (confirmed.has(petId)) return;
    // The id as given: a path id may be past 2^53.
    if (!(await pets.petExists(petId, requestId))) {
      throw new AppError('unknown_pet', `pet ${id} does not exist`);
    }
    if (confirmedForMs > 0) confirmed.set(petId, true);
  };
}
