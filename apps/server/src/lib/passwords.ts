import { hash, verify } from '@node-rs/argon2';
import { createRequire } from 'node:module';
import { MSG } from '@harvest/shared/messages';
import { badRequest } from './errors.ts';

// argon2id (the library's default algorithm) with its default cost: 19 MiB, 2 passes, one lane (OWASP's choice).
export const hashPassword = (password: string) => hash(password);

let dummyHash: Promise<string> | undefined;

/** Verifies a password; with no stored hash it still spends the same time (no user enumeration by timing). */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hash('not-a-real-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}

let common: Set<string> | undefined;

/**
 * One of the ~49,000 most common passwords of public breach corpora (the list zxcvbn-ts
 * maintains, @zxcvbn-ts/language-common), compared case-insensitively. Loaded on first use;
 * server only, so the list never reaches the web bundle.
 */
export function isCommonPassword(password: string): boolean {
  // Required on first use (about 2 MB of heap with the other lists of the package), not at startup.
  common ??= new Set(
    (createRequire(import.meta.url)('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common'))
      .dictionary['passwords-common'],
  );
  return common.has(password.toLowerCase());
}

/** ASVS 6.2.4: a password from the common list is refused, whatever its length. */
export function assertNotCommon(...passwords: string[]): void {
  if (passwords.some(isCommonPassword)) throw badRequest(MSG.passwordTooCommon);
}
