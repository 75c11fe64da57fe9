import type { Logger, Sender } from '@petstore/service-kit';
import type { StatusPush } from '../events.js';
import type { PetsAdapter } from '../pets-service/pets-adapter.js';

/** Sends status pushes to pets; a pet pets no longer has is passed over. */
export function statusPushSender(pets: PetsAdapter, logger: Logger): Sender {
  return async (messages) => {
    for (const { payload } of messages) {
      const { petId, status, version } = payload as StatusPush;
      if ((await pets.pushStatus(petId, status, version)) === 'pet_not_found') {
        logger.warn(
          { petId },
          'outbox: the pet no longer exists; its status push is dropped',
        );
      }
    }
  };
}
