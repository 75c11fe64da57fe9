import {
  createInternalClient,
  type InternalClient,
  type PetStatus,
  type PetStatusEntry,
} from '@petstore/contract';
import { AppError, inSpan, SpanKind, withTraceContext } from '@petstore/service-kit';

export interface PetsAdapterOptions {
  /** The pets service, or each of its replicas. */
  baseUrls: string[];
  internalToken: string;
  /** How long one call may take before pets counts as unreachable. */
  timeoutMs: number;
}

export type PushResult = 'delivered' | 'pet_not_found';

/** The store's only view of the pets service; each call throws PetsUnavailableError. */
export interface PetsAdapter {
  petExists(petId: number, requestId?: string): Promise<boolean>;
  /** Pets keeps the status only over an older `version`. */
  pushStatus(petId: number, status: PetStatus, version: number): Promise<PushResult>;
  /** The statuses of those of `petIds` (at most 100) that exist. */
  statuses(petIds: number[]): Promise<PetStatusEntry[]>;
}

/** Pets is unreachable, too slow, or responds outside the contract: 503, the reason as `cause`. */
export class PetsUnavailableError extends AppError {
  constructor(what: string, cause?: unknown) {
    super('service_unavailable', 'the pets service is unavailable', {
      cause: new Error(`[pets] ${what}`, { cause }),
    });
  }
}

type Response = { status: number; body: unknown };

/**
 * Calls go to each replica in turn, and one that does not respond is passed over for the next:
 * every call here is safe to repeat.
 */
export function createPetsAdapter({
  baseUrls,
  internalToken,
  timeoutMs,
}: PetsAdapterOptions): PetsAdapter {
  let turn = 0;

  /** The response when its status is one of the contract's successes (200, or 404 for a pet). */
  async function send<R extends Response>(
    what: string,
    call: (client: InternalClient, fetchOptions: { signal: AbortSignal }) => Promise<R>,
    requestId?: string,
  ): Promise<Extract<R, { status: 200 | 404 }>> {
    const first = turn++;
    const response = await inSpan(
      what,
      { kind: SpanKind.CLIENT, attributes: { 'peer.service': 'pets' } },
      async () => {
        let failure: unknown;
        for (let attempt = 0; attempt < baseUrls.length; attempt++) {
          const baseUrl = baseUrls[(first + attempt) % baseUrls.length] ?? '';
          const headers = withTraceContext<Record<string, string>>({});
          const client = createInternalClient({ baseUrl, internalToken, requestId, headers });
          try {
            return await call(client, { signal: AbortSignal.timeout(timeoutMs) });
          } catch (error) {
            failure = error;
          }
        }
        throw new PetsUnavailableError(`${what}: no response`, failure);
      },
    );
    if (response.status === 200 || response.status === 404) {
      return response as Extract<R, { status: 200 | 404 }>;
    }
    throw new PetsUnavailableError(`${what}: responded ${response.status}`, response.body);
  }

  return {
    async petExists(petId, requestId) {
      // Pets issues ids below 2^53; a larger one (its decimal form maybe past int64, which pets
      // would refuse with 400) does not exist.
      if (!Number.isSafeInteger(petId)) return false;
      const response = await send(
        `GET /internal/pets/${petId}`,
        (client, fetchOptions) =>
          client.pets.getPet({ params: { petId: String(petId) }, fetchOptions }),
        requestId,
      );
      return response.status === 200;
    },

    async pushStatus(petId, status, version) {
      const response = await send(`PUT /internal/pets/${petId}/status`, (client, fetchOptions) =>
        client.pets.setPetStatus({
          params: { petId: String(petId) },
          body: { status, version },
          fetchOptions,
        }),
      );
      return response.status === 200 ? 'delivered' : 'pet_not_found';
    },

    async statuses(petIds) {
      const response = await send('GET /internal/pet-statuses', (client, fetchOptions) =>
        client.pets.listPetStatuses({ query: { petId: petIds.map(String) }, fetchOptions }),
      );
      return response.body;
    },
  };
}
