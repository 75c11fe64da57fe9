import type { MongoServer } from './mongo-server.js';

/**
 * The environment of a service under test, as its config reads it: a database of its own on
 * `mongo` named after `database`, a free port, the internal token and no log lines. `env` adds
 * to it or overrides it.
 */
export function serviceTestEnv(
  mongo: MongoServer,
  { database, internalToken }: { database: string; internalToken: string },
  env: Record<string, string> = {},
): Record<string, string> {
  return {
    MONGODB_URI: mongo.uri,
    MONGODB_DB: mongo.databaseName(database),
    INTERNAL_TOKEN: internalToken,
    PORT: '0',
    LOG_LEVEL: 'silent',
    ...env,
  };
}
