/** A MongoDB-compatible server for tests and local runs. */
export interface MongoServer extends AsyncDisposable {
  /** A connection string for the official driver. */
  readonly uri: string;
  /** Where the database comes from: `MONGODB_URI`, a container, or a process of the test's own. */
  readonly kind: 'external' | 'container' | 'embedded';
  /** A database name no other caller of `startMongo` uses, e.g. `pets_3f9a1c2b`. */
  databaseName(prefix: string): string;
  /** Stops what was started (an external server is left running, with the named databases dropped). */
  stop(): Promise<void>;
}
