/**
 * A vitest fixture started once for a test file, by `start`, and disposed after the file's last
 * test: `test.extend<{ mongo: MongoServer }>({ mongo: fileFixture(startMongo) })`.
 */
export function fileFixture<T extends AsyncDisposable>(
  start: () => Promise<T>,
): [
  (context: object, use: (value: T) => Promise<void>) => Promise<void>,
  { scope: 'file' },
] {
  return [
    // Vitest reads the fixtures a fixture needs from its first parameter, which must be an
    // object pattern; this one needs none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      await using value = await start();
      await use(value);
    },
    { scope: 'file' },
  ];
}
