import { AppError } from '@petstore/service-kit';

export function notFound(what: 'pet' | 'category', id: bigint): AppError {
  return new AppError('not_found', `[pets] ${what} ${id} not found`);
}

export function unknownCategory(categoryId: number): AppError {
  return new AppError(
    'unknown_category',
    `[pets] category ${categoryId} does not exist`,
    {
      details: [
        { path: 'body.categoryId', message: `no category ${categoryId}` },
      ],
    },
  );
}
