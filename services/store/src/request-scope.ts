import type { Logger } from '@petstore/service-kit';

/** The request a use case serves: its id goes on to pets, its logger carries the id. */
export interface RequestScope {
  requestId: string;
  logger: Logger;
}
