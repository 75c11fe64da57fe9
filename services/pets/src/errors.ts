import { AppError } from '@petstore/service-kit';

export function petNotFound(petId: bigint): AppError {
  return new AppError('not_found', `[pets] pet ${petId} not found`);
}

export function categoryNotFound(categoryId: bigint): AppError {
  return new AppError('not_found', `[pets] category ${categoryId} not found`);
}

export function unknownCategory(categoryId: number): AppError {
  return new AppError('unknown_category', `[pets] category ${categoryId} does not exist`, {
    details: [{ path: 'body.categoryId', message: `no category ${categoryId}` }],
  });
}
