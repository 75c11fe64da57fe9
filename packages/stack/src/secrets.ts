import { randomBytes, randomInt } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface StackSecrets {
  /** What the gateway presents to the services, and they to each other. */
  internalToken: string;
  adminApiKey: string;
  /** Where the admin key came from: the environment, the data folder, or made just now. */
  adminApiKeySource: 'environment' | 'data directory' | 'generated';
}

/** An API key as the gateway issues them: `psk_` and 40 random base62 characters. */
export function generateApiKey(): string {
  return `psk_${Array.from({ length: 40 }, () => BASE62[randomInt(BASE62.length)]).join('')}`;
}

async function readSecret(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, 'utf8')).trim() || undefined;
  } catch {
    return undefined;
  }
}

async function storedOrNew(file: string, make: () => string) {
  const stored = await readSecret(file);
  if (stored) return { value: stored, generated: false };
  const value = make();
  await writeFile(file, `${value}\n`, { mode: 0o600 });
  return { value, generated: true };
}

/**
 * `INTERNAL_TOKEN` and `ADMIN_API_KEY` from the environment when set; otherwise kept in the data
 * folder (readable by its owner only) and made once, so restarts keep working with the same keys.
 */
export async function loadSecrets(
  dataDir: string,
  env: Record<string, string | undefined>,
): Promise<StackSecrets> {
  const internalToken =
    env.INTERNAL_TOKEN ||
    (
      await storedOrNew(join(dataDir, 'internal-token'), () =>
        randomBytes(32).toString('base64url'),
      )
    ).value;
  if (env.ADMIN_API_KEY) {
    return { internalToken, adminApiKey: env.ADMIN_API_KEY, adminApiKeySource: 'environment' };
  }
  const admin = await storedOrNew(join(dataDir, 'admin-api-key'), generateApiKey);
  return {
    internalToken,
    adminApiKey: admin.value,
    adminApiKeySource: admin.generated ? 'generated' : 'data directory',
  };
}
