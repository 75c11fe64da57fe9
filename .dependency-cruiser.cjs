/**
 * The import rules `pnpm lint` holds the code to: no circle of imports anywhere, and in each
 * service, layers that only point down. A service's layers are its `src` folders from the top
 * (the composition root) to the bottom (repositories); a file may import its own layer or lower.
 */
const layers = {
  gateway: [
    'start|main|index',
    'app|routes|config',
    'routing|docs|cors',
    'accounts|messages|webhooks',
    'auth|rate-limits|proxy',
    'database',
  ],
  store: [
    'start|main|index',
    'app|routes',
    'orders',
    'idempotency',
    'inventory',
    'outbox',
    'events',
    'pets-service',
    'repositories',
    'pet-status|request-scope',
  ],
  pets: [
    'main|start|index',
    'app',
    'deprecation|routes',
    'catalogue',
    'pets-repository|categories-repository|indexes',
    'storage|errors|config',
  ],
};

const upward = Object.entries(layers).flatMap(([service, order]) =>
  order.flatMap((lower, index) =>
    index === 0
      ? []
      : [
          {
            name: `${service}-layers`,
            comment: `${service}: ${lower} imports a layer above it`,
            severity: 'error',
            from: { path: `^services/${service}/src/(${lower})(/|\\.ts$)` },
            to: {
              path: `^services/${service}/src/(${order.slice(0, index).join('|')})(/|\\.ts$)`,
            },
          },
        ],
  ),
);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'An import circle: these modules cannot be read, tested or changed apart.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
