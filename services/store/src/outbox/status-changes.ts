import { currentTraceparent, type Logger } from '@petstore/service-kit';
import type { OutboxRepository } from '../repositories/outbox-repository.js';

export type StatusChanges = ReturnType<typeof createStatusChanges>;

export function createStatusChanges(outbox: OutboxRepository, wakeWorker: () => void) {
  return {
    // Never throws: the caller's write stands, and the status reconciliation repairs a lost push.
    async changed(petId: number, logger: Logger): Promise<void> {
      try {
        await outbox.record(petId, new Date(), currentTraceparent());
        wakeWorker();
      } catch (error) {
        logger.error({ err: error, petId }, 'could not record a status push for the pet');
      }
    },
  };
}
