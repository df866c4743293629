import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
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

/** Another live process holds the embedded database (DATA_DIR/pglite.lock). */
export class DataDirInUseError extends Error {}

const LOCK_FILE = 'pglite.lock';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The embedded database is one process's at a time: a second one (another server, a backup, a
 * restore, a CLI) on the same files would corrupt them. Takes DATA_DIR/pglite.lock (this process's
 * pid), taking over a lock whose process is gone; answers the release function.
 */
export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, LOCK_FILE);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => {
        if (existsSync(file) && readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder))
        throw new DataDirInUseError(
          `DATA_DIR ${dir} is in use by process ${holder} (a running server?): stop it first (${file})`,
        );
      unlinkSync(file);
    }
  }
  throw new DataDirInUseError(`DATA_DIR ${dir}: could not take ${file}`);
}
