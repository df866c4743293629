import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds the embedded database (password hashes, personal data, the ledger) and the
 * generated secrets: owner-only. Sets the process umask so everything created from now on
 * (PGlite's data and WAL files included) is 0700/0600, creates the directory if missing, and
 * tightens whatever an older version or a copy left readable by others. Answers what it tightened.
 */
export function secureDataDir(dir: string, opts: { create: boolean } = { create: true }): string[] {
  process.umask(0o077);
  const tightened: string[] = [];
  if (!existsSync(dir)) {
    if (opts.create) mkdirSync(dir, { recursive: true, mode: 0o700 });
    return tightened;
  }
  const visit = (p: string) => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return;
    if ((st.mode & 0o077) !== 0) {
      chmodSync(p, st.mode & 0o700);
      tightened.push(p);
    }
    if (st.isDirectory()) for (const name of readdirSync(p)) visit(path.join(p, name));
  };
  visit(dir);
  return tightened;
}
