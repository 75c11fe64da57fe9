import type { RouteMetadata } from '../contract-operations.js';

/** The tag of an older version's operations of a resource: `Pets (v1)`. */
export function olderTag(tag: string, version: string): string {
  return `${tag} (${version})`;
}

// What the reference page (Scalar) reads beside the extensions API.md names, which it ignores:
// `x-badges` beside an operation's name and `x-tagGroups` for the navigation.

interface Badge {
  name: string;
  position: 'before' | 'after';
  color: string;
}

/** Light backgrounds: Scalar writes a badge's text in its colour darkened. */
const stabilityBadges: Record<
  NonNullable<RouteMetadata['stability']>,
  Badge
> = {
  experimental: { name: 'Experimental', position: 'before', color: '#fdba74' },
  beta: { name: 'Beta', position: 'before', color: '#93c5fd' },
};

/** The badges of an operation: its stability, and the day it stops working. */
export function operationBadges({ stability, sunset }: RouteMetadata): Badge[] {
  return [
    ...(stability === undefined ? [] : [stabilityBadges[stability]]),
    ...(sunset === undefined
      ? []
      : [
          {
            name: `Sunset ${sunset.slice(0, 10)}`,
            position: 'before' as const,
            color: '#fca5a5',
          },
        ]),
  ];
}

/**
 * The navigation: the seed's groups, Store then Pets, then the rest (a tag in no group is hidden),
 * all of the current version `/v2`; then `/v1` under them, in the same order.
 * No group is named as a tag: Scalar would take the tag for its own group and recurse.
 */
const currentGroups = [
  { name: 'Store: orders and inventory', tags: ['Store'] },
  { name: 'Pets and categories', tags: ['Pets'] },
  {
    name: 'Accounts and notifications',
    tags: ['Accounts', 'Messages', 'Webhooks'],
  },
];

export const tagGroups = [
  ...currentGroups,
  { name: 'Health and reference', tags: ['Meta'] },
  {
    name: 'Previous version: /v1',
    tags: currentGroups.flatMap(({ tags }) =>
      tags.map((tag) => olderTag(tag, 'v1')),
    ),
  },
];
