import { randomBytes, randomInt } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface StackSecrets {
  internalToken: string;
  adminApiKey: string;
  adminApiKeySource: 'environment' | 'data directory' | 'generated';
}

/** As the gateway issues them: `psk_` and 40 random base62 characters. */
export function generateApiKey(): string {
  return `psk_${Array.from({ length: 40 }, () => BASE62[randomInt(BASE62.length)]).join('')}`;
}

async function storedOrNew(file: string, make: () => string) {
  const stored = (await readFile(file, 'utf8').catch(() => '')).trim();
  const value = stored || make();
  if (!stored) await writeFile(file, `${value}\n`, { mode: 0o600 });
  // The mode counts only when the write creates the file: one made by hand keeps its own.
  await chmod(file, 0o600);
  return { value, generated: !stored };
}

export async function loadSecrets(
  dataDir: string,
  env: NodeJS.ProcessEnv,
): Promise<StackSecrets> {
  const newToken = () => randomBytes(32).toString('base64url');
  const internalToken =
    env.INTERNAL_TOKEN ||
    (await storedOrNew(join(dataDir, 'internal-token'), newToken)).value;
  if (env.ADMIN_API_KEY) {
    return {
      internalToken,
      adminApiKey: env.ADMIN_API_KEY,
      adminApiKeySource: 'environment',
    };
  }
  const admin = await storedOrNew(
    join(dataDir, 'admin-api-key'),
    generateApiKey,
  );
  const adminApiKeySource = admin.generated ? 'generated' : 'data directory';
  return { internalToken, adminApiKey: admin.value, adminApiKeySource };
}
