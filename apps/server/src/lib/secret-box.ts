import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** AES-256-GCM for small secrets at rest (TOTP seeds), keyed from the server secret. */
export function sealSecret(serverSecret: string, plain: string): string {
  const key = createHash('sha256').update(`totp-seal:${serverSecret}`).digest();
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return `v1.${iv.toString('base64url')}.${c.getAuthTag().toString('base64url')}.${data.toString('base64url')}`;
}

/**
 * Opens a sealed secret with the first of the server secrets that sealed it (the current one, then
 * JWT_SECRET_PREVIOUS during a rotation); `sealedWith` says which, so a caller can re-seal.
 */
export function openSecret(serverSecrets: readonly string[], sealed: string): { plain: string; sealedWith: number } {
  const [v, iv, tag, data] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || !data) throw new Error('sealed secret has an unknown format');
  for (const [i, serverSecret] of serverSecrets.entries()) {
    const key = createHash('sha256').update(`totp-seal:${serverSecret}`).digest();
    const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    d.setAuthTag(Buffer.from(tag, 'base64url'));
    try {
      return {
        plain: Buffer.concat([d.update(Buffer.from(data, 'base64url')), d.final()]).toString('utf8'),
        sealedWith: i,
      };
    } catch {
      // Authentication failed: sealed with another secret.
    }
  }
  throw new Error('sealed secret opens with none of the server secrets');
}
