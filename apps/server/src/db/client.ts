import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { lockDataDir, secureDataDir } from '../lib/data-dir.ts';
import type { PoolStats } from '../lib/metrics.ts';
import { MIGRATIONS_DIR } from '../lib/paths.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The database or a transaction on it: every query function takes one of these. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs the committed migrations; safe when several instances start at once. */
  migrate(): Promise<void>;
  /** Connections in use and waiting, for the metrics. */
  poolStats(): PoolStats;
  close(): Promise<void>;
}

// BIGINT (int8) as JS bigint on node-postgres, matching PGlite and drizzle's bigint columns.
pg.types.setTypeParser(20, (v) => BigInt(v));

export function openPostgres(url: string, poolSize = 10): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client losing its server (restart, failover) must not crash the process.
  pool.on('error', () => undefined);
  const db: Db = drizzlePg(pool, { schema });
  return {
    db,
    kind: 'postgres',
    async migrate() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query('SELECT pg_advisory_lock(7261001)');
        await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await client.query('SELECT pg_advisory_unlock(7261001)').catch(() => undefined);
        await client.end();
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolSize }),
    close: () => pool.end(),
  };
}

/** Extensions the migrations use; PGlite loads them at open. */
export const PGLITE_EXTENSIONS = { pg_trgm };

export function wrapPglite(client: PGlite): Database {
  const db: Db = drizzlePglite(client, { schema });
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR }),
    // One connection in the process; queries queue inside PGlite, not in a pool.
    poolStats: () => ({ total: 1, idle: 1, waiting: 0, max: 1 }),
    close: () => client.close(),
  };
}

/**
 * PGlite's own start parameters plus a small buffer pool: the embedded database serves one
 * process, and Postgres's default 128 MB of shared buffers would double its memory (docs/BENCHMARKS.md).
 */
const PGLITE_START = [
  '--single',
  '-F',
  '-O',
  '-j',
  '-c',
  'search_path=public',
  '-c',
  'exit_on_error=false',
  '-c',
  'log_checkpoints=false',
  '-c',
  'max_worker_processes=0',
  '-c',
  'max_parallel_workers=0',
  '-c',
  'max_parallel_workers_per_gather=0',
  '-c',
  'io_method=sync',
  '-c',
  'max_parallel_maintenance_workers=0',
  '-c',
  'shared_buffers=16MB',
];

/** The embedded database in DATA_DIR/pglite, locked to this process until it is closed (lib/data-dir.ts). */
export async function openPglite(dataDir: string): Promise<Database & { client: PGlite }> {
  // Owner-only (issue 11): the umask covers the files PGlite creates while it runs; the files of
  // a new cluster are written by PGlite's initdb with their own modes, so they are tightened after.
  secureDataDir(dataDir);
  const release = lockDataDir(dataDir);
  try {
    const client = await PGlite.create(path.join(dataDir, 'pglite'), {
      extensions: PGLITE_EXTENSIONS,
      startParams: PGLITE_START,
    });
    secureDataDir(dataDir);
    const database = wrapPglite(client);
    return {
      ...database,
      client,
      async close() {
        await database.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

export function openDatabase(opts: { databaseUrl?: string; dataDir: string; poolSize?: number }): Promise<Database> {
  return opts.databaseUrl ? Promise.resolve(openPostgres(opts.databaseUrl, opts.poolSize)) : openPglite(opts.dataDir);
}
