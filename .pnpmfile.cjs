// TypeScript 7 type-checks every package, but it has no JavaScript API yet. These tools load
// TypeScript's JavaScript API (the compiler, as a library), so each gets TypeScript 6 as a
// dependency of its own instead of sharing a package's `typescript` as a peer. Bumped by hand:
// docs/development.md, "TypeScript 6 inside the tools".
const typescript6 = '6.0.3';
const tools = new Set([
  'typescript-eslint',
  '@typescript-eslint/eslint-plugin',
  '@typescript-eslint/parser',
  '@typescript-eslint/project-service',
  '@typescript-eslint/tsconfig-utils',
  '@typescript-eslint/type-utils',
  '@typescript-eslint/typescript-estree',
  '@typescript-eslint/utils',
  'ts-api-utils',
  'tsup',
  'openapi-typescript',
  'dependency-cruiser',
]);

module.exports = {
  hooks: {
    readPackage(pkg) {
      if (tools.has(pkg.name)) {
        delete pkg.peerDependencies?.typescript;
        delete pkg.peerDependenciesMeta?.typescript;
        pkg.dependencies = { ...pkg.dependencies, typescript: typescript6 };
      }
      return pkg;
    },
  },
};
