import { execFile } from 'node:child_process';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir, secureDataDir } from '../lib/data-dir.ts';
import { countUserTables, dropAppSchemas, mayRunServerPrograms } from './backup.queries.ts';
import { openPostgres } from './client.ts';
import { openPglite, PGLITE_OPTIONS } from './pglite.ts';
import { systemClock } from '../lib/clock.ts';

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

/** The signature beside a backup: an HMAC-SHA256 with BACKUP_KEY over the backup and its secret copy. */
export const signatureOf = (file: string) => `${file}.sig`;
const SIGNATURE_HEADER = 'harvest-backup-signature v1';

/**
 * Creates `file` empty and owner-only before anything is written to it, so no byte of a backup is ever
 * readable by another user (pg_dump and writeFile keep the mode of a file that exists). A left-over file
 * of that name is removed first: its mode is not ours to trust.
 */
function createOwnerOnly(file: string): void {
  rmSync(file, { force: true });
  closeSync(openSync(file, 'wx', 0o600));
}

function writeOwnerOnly(file: string, data: Buffer | string): void {
  createOwnerOnly(file);
  writeFileSync(file, data);
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The MAC of a backup: the backup's hash and its generated-secret copy's (or '-'), keyed with BACKUP_KEY. */
function backupMac(key: string, file: string): Buffer {
  const secretCopy = secretCopyOf(file);
  return createHmac('sha256', key)
    .update(`harvest-backup v1\n${sha256(file)}\n${existsSync(secretCopy) ? sha256(secretCopy) : '-'}\n`)
    .digest();
}

/**
 * Refuses a backup that BACKUP_KEY did not sign as it is now: unsigned, changed after it was written
 * (a planted administrator, a function that runs programs), or signed with another key.
 */
export function verifyBackup(file: string, key: string | undefined): void {
  const sig = signatureOf(file);
  const why = 'a changed backup can plant accounts or code in the database';
  if (!existsSync(sig))
    throw new BackupError(
      `${file} is not signed (${sig} is missing): ${why}. Restore a signed backup, or add --unsigned if you know where this file has been`,
    );
  if (!key) throw new BackupError(`BACKUP_KEY is not set, so the signature of ${file} cannot be checked`);
  const [header, mac] = readFileSync(sig, 'utf8').trim().split('\n');
  const given = Buffer.from(mac?.replace(/^hmac-sha256 /, '') ?? '', 'hex');
  const expected = backupMac(key, file);
  if (header !== SIGNATURE_HEADER || given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new BackupError(
      `${file} does not match its signature: it was changed after the backup was written, or another BACKUP_KEY signed it (${why})`,
    );
}

/** PostgreSQL's client tools: PG_BIN, else Debian's PostgreSQL 15 directory when present, else PATH. */
function pgTool(name: 'pg_dump' | 'pg_restore'): string {
  const dir = process.env.PG_BIN ?? (existsSync('/usr/lib/postgresql/15/bin') ? '/usr/lib/postgresql/15/bin' : '');
  return dir ? path.join(dir, name) : name;
}

export interface Target {
  databaseUrl?: string;
  dataDir: string;
}

/**
 * Writes a backup of the target database to `file`, owner-only from its first byte, and signs it with
 * `key` (BACKUP_KEY) into FILE.sig; answers the files written. Without a key nothing is signed.
 */
export async function backup(target: Target, file: string, key?: string): Promise<string[]> {
  const written = await writeBackup(target, file);
  if (key) {
    writeOwnerOnly(signatureOf(file), `${SIGNATURE_HEADER}\nhmac-sha256 ${backupMac(key, file).toString('hex')}\n`);
    written.push(signatureOf(file));
  } else rmSync(signatureOf(file), { force: true });
  return written;
}

async function writeBackup(target: Target, file: string): Promise<string[]> {
  const tmp = `${file}.partial`;
  if (target.databaseUrl) {
    // Password hashes and personal data: owner-only, like DATA_DIR.
    createOwnerOnly(tmp);
    await runTool(pgTool('pg_dump'), ['--format=custom', '--no-owner', `--file=${tmp}`, target.databaseUrl]);
    renameSync(tmp, file);
    rmSync(secretCopyOf(file), { force: true });
    return [file];
  }
  if (!existsSync(path.join(target.dataDir, PGLITE_DIR)))
    throw new BackupError(`DATA_DIR ${target.dataDir} holds no embedded database (${PGLITE_DIR}/ is missing)`);
  const database = await openPglite(target.dataDir);
  try {
    const dump = await database.client.dumpDataDir('gzip');
    writeOwnerOnly(tmp, Buffer.from(await dump.arrayBuffer()));
    renameSync(tmp, file);
  } finally {
    await database.close();
  }
  const written = [file];
  const secret = path.join(target.dataDir, SECRET_FILE);
  if (existsSync(secret)) {
    writeOwnerOnly(secretCopyOf(file), readFileSync(secret));
    written.push(secretCopyOf(file));
  } else rmSync(secretCopyOf(file), { force: true });
  return written;
}

export interface RestoreOptions {
  /** Replace a database that holds data. */
  force: boolean;
  /** BACKUP_KEY: the file must carry its signature. */
  key?: string;
  /** Restore without checking the signature (--unsigned). */
  unsigned?: boolean;
  /** Restore through a PostgreSQL role that may run programs on the server (--allow-superuser). */
  allowSuperuser?: boolean;
}

/**
 * Restores `file` into the target: only a backup BACKUP_KEY signed (unless `unsigned`), without owners
 * or privileges, and on PostgreSQL not as a role that may run server programs (unless `allowSuperuser`).
 * A target that holds data is refused unless `force`: then PostgreSQL's app schemas are dropped first,
 * and the embedded database's files are moved aside (DATA_DIR/pglite.replaced-<time>) rather than deleted.
 */
export async function restore(target: Target, file: string, opts: RestoreOptions): Promise<string> {
  if (!existsSync(file)) throw new BackupError(`${file}: no such backup file`);
  if (!opts.unsigned) verifyBackup(file, opts.key);
  return target.databaseUrl
    ? restorePostgres(target.databaseUrl, file, opts.force, opts.allowSuperuser ?? false)
    : restorePglite(target.dataDir, file, opts.force);
}

async function restorePostgres(url: string, file: string, force: boolean, allowSuperuser: boolean): Promise<string> {
  const database = openPostgres(url, 1);
  try {
    // pg_restore runs the archive's SQL as the connecting role: as a superuser, a function or COPY ...
    // TO PROGRAM planted in a backup runs commands as the database server's operating-system user.
    if (!allowSuperuser && (await mayRunServerPrograms(database.db)))
      throw new BackupError(
        "DATABASE_URL connects as a superuser (or a role that may run server programs): SQL in a backup would run with the database server's operating-system rights. Restore as the application's own role (the owner of the database), or add --allow-superuser if you trust this file",
      );
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
      renameSync(dir, `${dir}.replaced-${systemClock.now().toISOString().replace(/[:.]/g, '-')}`);
    }
    const client = await PGlite.create(dir, {
      loadDataDir: new Blob([readFileSync(file)]),
      ...PGLITE_OPTIONS,
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
