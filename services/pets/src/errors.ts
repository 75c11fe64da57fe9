import { AppError } from '@petstore/service-kit';

export function notFound(what: 'pet' | 'category', id: bigint): AppError {
  return new AppError('not_found', `[pets] ${what} ${id} not found`);
}

export function unknownCategory(categoryId: number): AppError {
  return new AppError('unknown_category', `[pets] category ${categoryId} does not exist`, {
    details: [{ path: 'body.categoryId', message: `no category ${categoryId}` }],
  });
}

/** A pet kept because the events it carries could not be sent (they would be deleted with it). */
export function eventsNotSent(petId: bigint, cause: unknown): AppError {
  return new AppError(
    'service_unavailable',
    `[pets] pet ${petId} was not deleted: its events could not be handed to the gateway; try again`,
    { cause },
  );
}
