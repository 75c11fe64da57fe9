import { describe, expect, it } from 'vitest';
import { toRouterPath } from './router-path.js';

describe('toRouterPath', () => {
  it('keeps required parameters as they are', () => {
    expect(toRouterPath('/books/:bookId/reviews/:reviewId')).toBe(
      '/books/:bookId/reviews/:reviewId',
    );
  });

  it('rewrites an optional parameter to the path-to-regexp 8 syntax', () => {
    expect(toRouterPath('/books/:bookId?')).toBe('/books{/:bookId}');
  });
});
