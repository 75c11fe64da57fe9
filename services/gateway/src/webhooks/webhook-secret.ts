import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A new signing secret as Standard Webhooks writes them: `whsec_` and base64 of 32 bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The key that seals webhook secrets at rest: `WEBHOOK_SECRETS_KEY` (base64 of 32 bytes) when
 * set, else derived from the internal token, so every gateway can unseal and the database alone
 * cannot.
 */
export function webhookSecretsKey({
  webhookSecretsKey,
  internalToken,
}: {
  webhookSecretsKey?: string | undefined;
  internalToken: string;
}): Buffer {
  if (webhookSecretsKey !== undefined) return Buffer.from(webhookSecretsKey, 'base64');
  return Buffer.from(hkdfSync('sha256', internalToken, '', 'petstore webhook secrets', 32));
}

/** `secret` encrypted and authenticated under `key`: `v1.<iv>.<tag>.<ciphertext>`, base64url. */
export function sealSecret(secret: string, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'));
  return [VERSION, ...parts].join('.');
}

/** The secret `sealSecret` sealed; throws when it was sealed under another key or altered. */
export function unsealSecret(sealed: string, key: Buffer): string {
  const [version, ...parts] = sealed.split('.');
  if (version !== VERSION || parts.length !== 3) {
    throw new Error('sealed webhook secret is malformed');
  }
  const [iv, tag, ciphertext] = parts.map((part) => Buffer.from(part, 'base64url')) as [
    Buffer,
    Buffer,
    Buffer,
  ];
  try {
    const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch (error) {
    throw new Error('sealed webhook secret does not open with this key, or was altered', {
      cause: error,
    });
  }
}
