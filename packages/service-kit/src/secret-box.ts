import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets the product stores for later use (webhook signing secrets) are sealed with AES-256-GCM under a key from the
 * environment, so a database dump alone does not reveal them. `SECRETS_KEY` is any long random text; the key is its
 * SHA-256. A sealed value is `v1:<iv>:<tag>:<ciphertext>` (base64url), and it only opens with the same key.
 */
const DEV_SECRETS_KEY = 'dev-only-secrets-key-change-me';

export function secretsKey(): string {
  const k = process.env.SECRETS_KEY;
  if (k) return k;
  if (process.env.NODE_ENV === 'production') throw new Error('SECRETS_KEY must be set in production');
  return DEV_SECRETS_KEY;
}

export interface SecretBox {
  seal(plain: string): string;
  /** The secret, or null when the value was sealed under another key or is damaged. */
  open(sealed: string): string | null;
}

export function createSecretBox(keyText: string = secretsKey()): SecretBox {
  const key = createHash('sha256').update(keyText).digest();
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [
        'v1',
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        body.toString('base64url'),
      ].join(':');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(':');
      if (version !== 'v1' || !iv || !tag || body === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}
