import { randomBytes, randomUUID } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../src/bootstrap.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { freePort } from '../net.ts';
import { migratedDataDir } from '../pglite-template.ts';
import { Cluster, runCli as runSourceCli, scratchPostgres } from '../support/processes.ts';
import { buildServer } from '../support/build.ts';

/**
 * Backups and restores through the CLIs. A backup is owner-only from its first byte (a chmod after pg_dump
 * would leave FILE.partial 0644 meanwhile, and a left-over FILE.partial would lend it its mode). A restore trusts
 * only what BACKUP_KEY signed: a swapped, changed or unsigned archive is refused unless --unsigned; on
 * PostgreSQL it refuses a superuser connection unless --allow-superuser, because SQL in an archive (here a
 * CHECK constraint calling COPY ... TO PROGRAM) runs with the database server's rights during pg_restore.
 */
/** When the people these tests create signed up: a fixed day, no app clock here. */
const SIGNED_UP = new Date('2026-01-01T00:00:00Z');
const work = mkdtempSync(path.join(os.tmpdir(), 'hf-backup-trust-'));
const KEY = randomBytes(32).toString('hex');
const OTHER_KEY = randomBytes(32).toString('hex');

/** An embedded database in DATA_DIR/pglite, from the migrated template (pglite-template.ts), with an administrator. */
async function embeddedSource(name: string, adminEmail: string): Promise<string> {
  const dataDir = path.join(work, name);
  await migratedDataDir(dataDir);
  const database = await openPglite(dataDir);
  try {
    await createAdmin(database.db, { email: adminEmail, password: 'a-long-admin-password-1', createdAt: SIGNED_UP });
  } finally {
    await database.close();
  }
  return dataDir;
}
/** The CLIs as `npm run backup` / `npm run restore` run them: the build. */
const runCli = (name: string, args: string[], env: Record<string, string>) => runSourceCli(name, args, env, 'dist');
const embedded = (dataDir: string, key = KEY) => ({ DATA_DIR: dataDir, DATABASE_URL: '', BACKUP_KEY: key });

let source: string;
let planted: string;
/** One PostgreSQL server for the file: DATABASE_URL's, or a throwaway cluster. */
let cluster: Cluster | null = null;
let server = '';
const scratch = (owner = false) => scratchPostgres({ owner, server });
beforeAll(async () => {
  buildServer();
  cluster = process.env.DATABASE_URL ? null : new Cluster(await freePort());
  cluster?.start();
  server = process.env.DATABASE_URL ?? cluster?.url ?? '';
  source = await embeddedSource('source', 'ops@example.com');
  // The embedded default keeps a generated JWT secret in DATA_DIR; the backup carries a copy of it.
  writeFileSync(path.join(source, 'jwt-secret'), randomBytes(48).toString('base64url'), { mode: 0o600 });
  planted = await embeddedSource('planted', 'attacker@example.com');
}, 120_000);
afterAll(() => {
  cluster?.destroy();
  rmSync(work, { recursive: true, force: true });
});

describe('backups are owner-only from the first byte', () => {
  it('a left-over FILE.partial readable by others does not lend its mode to the backup', () => {
    const file = path.join(work, 'leftover.backup');
    writeFileSync(`${file}.partial`, 'old');
    chmodSync(`${file}.partial`, 0o644);
    writeFileSync(`${file}.jwt-secret`, 'old');
    chmodSync(`${file}.jwt-secret`, 0o644);
    const b = runCli('backup', [file], embedded(source));
    expect(b.status, b.output).toBe(0);
    for (const f of [file, `${file}.jwt-secret`, `${file}.sig`]) expect(statSync(f).mode & 0o777, f).toBe(0o600);
  });

  it('pg_dump writes into a file that is already owner-only (its mode seen while pg_dump runs)', async () => {
    const db = await scratch();
    const bin = path.join(work, 'pg-bin');
    const seen = path.join(work, 'mode-seen');
    try {
      rmSync(bin, { recursive: true, force: true });
      // A pg_dump under a usual umask (022) that reports the mode of its output file just before it exits: the
      // file must be owner-only before pg_dump writes its first byte, not made so afterwards.
      const real = '/usr/lib/postgresql/15/bin';
      const script = (tool: string) =>
        `#!/bin/sh\numask 022\n"${real}/${tool}" "$@" || exit $?\nfor a in "$@"; do case "$a" in --file=*) stat -c %a "\${a#--file=}" > "${seen}";; esac; done\n`;
      mkdirSync(bin);
      for (const tool of ['pg_dump', 'pg_restore']) writeFileSync(path.join(bin, tool), script(tool), { mode: 0o755 });
      const file = path.join(work, 'pg.backup');
      const b = runCli('backup', [file], { DATABASE_URL: db.url, BACKUP_KEY: KEY, PG_BIN: bin });
      expect(b.status, b.output).toBe(0);
      expect(readFileSync(seen, 'utf8').trim()).toBe('600');
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      await db.destroy();
    }
  });
});

describe('restore trusts only what BACKUP_KEY signed', () => {
  const file = path.join(work, 'signed.backup');
  const target = () => path.join(work, `target-${randomUUID().slice(0, 8)}`);
  const restored = (dataDir: string) =>
    existsSync(path.join(dataDir, 'pglite')) && readdirSync(path.join(dataDir, 'pglite')).length > 0;

  beforeAll(() => {
    const b = runCli('backup', [file], embedded(source));
    expect(b.status, b.output).toBe(0);
    expect(existsSync(`${file}.sig`)).toBe(true);
  });

  it('the signed backup restores', () => {
    const dir = target();
    const r = runCli('restore', [file], embedded(dir));
    expect(r.status, r.output).toBe(0);
    expect(restored(dir)).toBe(true);
  });

  it('another archive under the signed name (a planted administrator) is refused, and nothing is written', () => {
    const swapped = path.join(work, 'swapped.backup');
    const other = runCli('backup', [swapped, '--unsigned'], embedded(planted));
    expect(other.status, other.output).toBe(0);
    copyFileSync(`${file}.sig`, `${swapped}.sig`);
    copyFileSync(`${file}.jwt-secret`, `${swapped}.jwt-secret`);
    const dir = target();
    const r = runCli('restore', [swapped], embedded(dir));
    expect(r.status).toBe(1);
    expect(r.output).toContain('does not match its signature');
    expect(restored(dir)).toBe(false);
  });

  it('a changed secret copy, or another BACKUP_KEY, is refused', () => {
    const copy = path.join(work, 'copy.backup');
    for (const ext of ['', '.sig', '.jwt-secret']) copyFileSync(`${file}${ext}`, `${copy}${ext}`);
    writeFileSync(`${copy}.jwt-secret`, 'a-secret-the-attacker-knows-0123456789abcdef');
    const dir = target();
    expect(runCli('restore', [copy], embedded(dir)).output).toContain('does not match its signature');
    expect(runCli('restore', [file], embedded(dir, OTHER_KEY)).output).toContain('does not match its signature');
    expect(restored(dir)).toBe(false);
  });

  it('an unsigned archive is refused unless --unsigned; a backup needs BACKUP_KEY or --unsigned', () => {
    const unsigned = path.join(work, 'unsigned.backup');
    expect(runCli('backup', [unsigned], { ...embedded(source), BACKUP_KEY: '' }).output).toContain(
      'BACKUP_KEY is not set',
    );
    expect(runCli('backup', [unsigned, '--unsigned'], embedded(source)).status).toBe(0);
    expect(existsSync(`${unsigned}.sig`)).toBe(false);
    const dir = target();
    const refused = runCli('restore', [unsigned], embedded(dir));
    expect(refused.status).toBe(1);
    expect(refused.output).toContain('is not signed');
    expect(refused.output).toContain('--unsigned');
    expect(restored(dir)).toBe(false);
    const forced = runCli('restore', [unsigned, '--unsigned'], embedded(dir));
    expect(forced.status, forced.output).toBe(0);
    expect(restored(dir)).toBe(true);
  });
});

describe('restore refuses a PostgreSQL superuser connection', () => {
  it('SQL planted in an archive cannot run programs: refused as superuser, denied as the app role', async () => {
    const src = await scratch();
    const asSuper = await scratch();
    const asApp = await scratch(true);
    const marker = path.join(os.tmpdir(), `hf-restore-ran-${randomUUID()}`);
    try {
      // An archive whose data load calls a function that runs a program (COPY ... TO PROGRAM).
      const c = new pg.Client({ connectionString: src.url });
      await c.connect();
      await c.query(`CREATE FUNCTION public.planted(x int) RETURNS boolean LANGUAGE plpgsql AS $$
        BEGIN EXECUTE format('COPY (SELECT 1) TO PROGRAM %L', 'touch ${marker}'); RETURN true; END $$`);
      await c.query('CREATE TABLE public.t (x int CHECK (public.planted(x)))');
      await c.query('INSERT INTO public.t VALUES (1)');
      await c.end();
      rmSync(marker, { force: true });
      const file = path.join(work, 'planted-pg.backup');
      expect(runCli('backup', [file], { DATABASE_URL: src.url, BACKUP_KEY: KEY }).status).toBe(0);

      const refused = runCli('restore', [file], { DATABASE_URL: asSuper.url, BACKUP_KEY: KEY });
      expect(refused.status).toBe(1);
      expect(refused.output).toContain('superuser');
      expect(refused.output).toContain('--allow-superuser');
      expect(existsSync(marker)).toBe(false);

      const denied = runCli('restore', [file], { DATABASE_URL: asApp.url, BACKUP_KEY: KEY });
      expect(denied.status).toBe(1);
      expect(denied.output).toMatch(/permission denied|must be superuser|pg_execute_server_program/);
      expect(existsSync(marker)).toBe(false);
    } finally {
      rmSync(marker, { force: true });
      await Promise.all([src.destroy(), asSuper.destroy(), asApp.destroy()]);
    }
  });
});
