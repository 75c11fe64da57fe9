import type { Caller } from '@petstore/service-kit';

/** What a use case is told of the request it serves, as plain values: who asks, and its id. */
export interface RequestScope {
  caller: Caller;
  /** Passed on to pets, so that its log lines join the request's. */
  requestId: string;
}
