import { hash, verify } from '@node-rs/argon2';

// argon2id (the library's default algorithm) with its default cost parameters.
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
