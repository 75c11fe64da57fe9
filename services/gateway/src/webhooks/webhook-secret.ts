import {
  createCipheriv,
  createDecipheriv,
  hkdfSync,
  randomBytes,
} from 'node:crypto';

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** As Standard Webhooks writes them. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Seals secrets at rest; derived from the internal token, every gateway can unseal them. */
export function webhookSecretsKey(
  internalToken: string,
  configured?: string,
): Buffer {
  if (configured !== undefined) return Buffer.from(configured, 'base64');
  return Buffer.from(
    hkdfSync('sha256', internalToken, '', 'petstore webhook secrets', 32),
  );
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64url. */
export function sealSecret(secret: string, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, {
    authTagLength: TAG_BYTES,
  });
  const ciphertext = Buffer.concat([
    cipher.update(secret, 'utf8'),
    cipher.final(),
  ]);
  const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) =>
    part.toString('base64url'),
  );
  return [VERSION, ...parts].join('.');
}

export function unsealSecret(sealed: string, key: Buffer): string {
  const [version, ...parts] = sealed.split('.');
  if (version !== VERSION || parts.length !== 3)
    throw new Error('sealed webhook secret is malformed');
  const [iv, tag, ciphertext] = parts.map((part) =>
    Buffer.from(part, 'base64url'),
  ) as [Buffer, Buffer, Buffer];
  try {
    const decipher = createDecipheriv(ALGORITHM, key, iv, {
      authTagLength: TAG_BYTES,
    }).setAuthTag(tag);
    return (
      decipher.update(ciphertext, undefined, 'utf8') + decipher.final('utf8')
    );
  } catch (cause) {
    const why = 'does not open with this key, or was altered';
    throw new Error(`sealed webhook secret ${why}`, { cause });
  }
}
