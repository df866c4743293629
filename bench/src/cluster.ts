/**
 * The bench's PostgreSQL: BENCH_DATABASE_URL when set, else a throwaway cluster in a temporary directory
 * (initdb from /usr/lib/postgresql/<newest>/bin; as root its tools run as the postgres user), removed at the end.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../apps/server/test/net.ts';

export interface Postgres {
  /** The database to seed and serve from. */
  url: string;
  /** The same server's maintenance database (CREATE DATABASE, settings). */
  admin: string;
  /** Started here: its settings may be changed and it is removed by stop(). */
  owned: boolean;
  stop: () => void;
}

function pgBin(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], 'bin') : null;
}

export async function startPostgres(): Promise<Postgres> {
  const given = process.env.BENCH_DATABASE_URL;
  if (given) return { url: given, admin: withDatabase(given, 'postgres'), owned: false, stop: () => undefined };
  const bin = pgBin();
  if (!bin)
    throw new Error('No PostgreSQL: set BENCH_DATABASE_URL, or install PostgreSQL (initdb under /usr/lib/postgresql).');
  const port = process.env.BENCH_PG_PORT ? Number(process.env.BENCH_PG_PORT) : await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hf-bench-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], { stdio: 'pipe' })
      : execFileSync(path.join(bin, cmd), args, { stdio: 'pipe' });
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const data = path.join(dir, 'data');
  console.log(`Starting a throwaway PostgreSQL in ${dir} on port ${port}`);
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8']);
  const settings = [
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`,
    '-c shared_buffers=512MB -c max_wal_size=4GB -c maintenance_work_mem=512MB -c synchronous_commit=on',
  ].join(' ');
  run('pg_ctl', ['-D', data, '-o', settings, '-l', path.join(dir, 'log'), '-w', 'start']);
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await sql(admin, 'CREATE DATABASE hf_bench');
  return {
    url: withDatabase(admin, 'hf_bench'),
    admin,
    owned: true,
    stop: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function sql<T = Record<string, unknown>>(url: string, text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text)).rows as T[];
  } finally {
    await c.end();
  }
}

/** Seeded users in the database (0 when it is empty or not migrated). */
export async function seededUsers(url: string): Promise<number> {
  const [t] = await sql<{ ok: boolean }>(url, `SELECT to_regclass('public.users') IS NOT NULL AS ok`);
  if (!t?.ok) return 0;
  const [r] = await sql<{ n: number }>(url, `SELECT count(*)::int AS n FROM users WHERE email LIKE '%@seed.harvest'`);
  return r?.n ?? 0;
}

/**
 * A seed is throwaway data: while it loads, a cluster started here writes without durability (no fsync, no full
 * page images); the measured runs then get the defaults back, after a checkpoint.
 */
export async function seedingMode(pgs: Postgres, on: boolean): Promise<void> {
  if (!pgs.owned) return;
  const names = ['fsync', 'full_page_writes', 'synchronous_commit'];
  for (const n of names) await sql(pgs.admin, on ? `ALTER SYSTEM SET ${n} = off` : `ALTER SYSTEM RESET ${n}`);
  await sql(pgs.admin, 'SELECT pg_reload_conf()');
  if (!on) await sql(pgs.admin, 'CHECKPOINT');
}

/** A copy of the bench's database, for a server whose migrations differ (no one may be connected to the source). */
export async function copyDatabase(pgs: Postgres, to: string): Promise<string> {
  const from = new URL(pgs.url).pathname.slice(1);
  await sql(pgs.admin, `DROP DATABASE IF EXISTS ${to}`);
  await sql(pgs.admin, `CREATE DATABASE ${to} TEMPLATE ${from} STRATEGY FILE_COPY`);
  return withDatabase(pgs.admin, to);
}
