import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir, secureDataDir } from '../lib/data-dir.ts';
import { countUserTables, dropAppSchemas } from './backup.queries.ts';
import { openPostgres } from './client.ts';
import { openPglite, PGLITE_EXTENSIONS } from './pglite.ts';

/**
 * Backups of the one database the server uses (docs/OPERATIONS.md): the embedded PGlite's data-dir
 * dump (a gzipped tar PGlite loads back), or pg_dump's custom format for PostgreSQL (pg_restore
 * reads it). Both refuse to restore over data unless forced.
 */

const run = promisify(execFile);

/** Where a refused or failed backup or restore says why; the CLIs print the message and exit 1. */
export class BackupError extends Error {}

/** The embedded database's files inside DATA_DIR, and the generated JWT secret next to them. */
const PGLITE_DIR = 'pglite';
const SECRET_FILE = 'jwt-secret';
/** Kept beside a PGlite backup when the secret was generated into DATA_DIR (sessions and authenticator seeds need it). */
export const secretCopyOf = (file: string) => `${file}.jwt-secret`;

/** PostgreSQL's client tools: PG_BIN, else Debian's PostgreSQL 15 directory when present, else PATH. */
function pgTool(name: 'pg_dump' | 'pg_restore'): string {
  const dir = process.env.PG_BIN ?? (existsSync('/usr/lib/postgresql/15/bin') ? '/usr/lib/postgresql/15/bin' : '');
  return dir ? path.join(dir, name) : name;
}

export interface Target {
  databaseUrl?: string;
  dataDir: string;
}

/** Writes a backup of the target database to `file` (owner-only); answers the files written. */
export async function backup(target: Target, file: string): Promise<string[]> {
  const tmp = `${file}.partial`;
  if (target.databaseUrl) {
    await runTool(pgTool('pg_dump'), ['--format=custom', '--no-owner', `--file=${tmp}`, target.databaseUrl]);
    // Password hashes and personal data: owner-only, like DATA_DIR.
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
    return [file];
  }
  if (!existsSync(path.join(target.dataDir, PGLITE_DIR)))
    throw new BackupError(`DATA_DIR ${target.dataDir} holds no embedded database (${PGLITE_DIR}/ is missing)`);
  const database = await openPglite(target.dataDir);
  try {
    const dump = await database.client.dumpDataDir('gzip');
    writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
    renameSync(tmp, file);
  } finally {
    await database.close();
  }
  const written = [file];
  const secret = path.join(target.dataDir, SECRET_FILE);
  if (existsSync(secret)) {
    copyFileSync(secret, secretCopyOf(file));
    written.push(secretCopyOf(file));
  }
  return written;
}

/**
 * Restores `file` into the target. A target that holds data is refused unless `force`: then
 * PostgreSQL's app schemas are dropped first, and the embedded database's files are moved aside
 * (DATA_DIR/pglite.replaced-<time>) rather than deleted.
 */
export async function restore(target: Target, file: string, opts: { force: boolean }): Promise<string> {
  if (!existsSync(file)) throw new BackupError(`${file}: no such backup file`);
  return target.databaseUrl
    ? restorePostgres(target.databaseUrl, file, opts.force)
    : restorePglite(target.dataDir, file, opts.force);
}

async function restorePostgres(url: string, file: string, force: boolean): Promise<string> {
  const database = openPostgres(url, 1);
  try {
    const tables = await countUserTables(database.db);
    if (tables > 0 && !force)
      throw new BackupError(
        `the target database is not empty (${tables} tables): restore into an empty database, or add --force to replace its contents`,
      );
    if (tables > 0) await dropAppSchemas(database.db);
  } finally {
    await database.close();
  }
  await runTool(pgTool('pg_restore'), [
    '--no-owner',
    '--no-acl',
    '--single-transaction',
    '--exit-on-error',
    `--dbname=${url}`,
    file,
  ]);
  return 'PostgreSQL database (DATABASE_URL)';
}

async function restorePglite(dataDir: string, file: string, force: boolean): Promise<string> {
  secureDataDir(dataDir);
  const release = lockDataDir(dataDir);
  try {
    const dir = path.join(dataDir, PGLITE_DIR);
    if (existsSync(dir) && readdirSync(dir).length > 0) {
      if (!force)
        throw new BackupError(
          `DATA_DIR ${dataDir} already holds an embedded database: restore into an empty DATA_DIR, or add --force to replace it`,
        );
      renameSync(dir, `${dir}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    }
    const client = await PGlite.create(dir, {
      loadDataDir: new Blob([readFileSync(file)]),
      extensions: PGLITE_EXTENSIONS,
    });
    await client.close();
    const secretCopy = secretCopyOf(file);
    const secret = path.join(dataDir, SECRET_FILE);
    if (existsSync(secretCopy) && (force || !existsSync(secret))) copyFileSync(secretCopy, secret);
    secureDataDir(dataDir);
  } finally {
    release();
  }
  return `embedded database in ${dataDir}`;
}

async function runTool(cmd: string, args: string[]): Promise<void> {
  try {
    await run(cmd, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new BackupError(`${path.basename(cmd)} failed: ${(e.stderr || e.message).trim()}`);
  }
}
