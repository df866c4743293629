import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { PoolStats } from '../lib/metrics.ts';
import { MIGRATIONS_DIR } from '../lib/paths.ts';
import { applyFunctions } from './functions.ts';
import { INT8, INT8_ARRAY, parseInt8, TEXT_ARRAY } from './row-types.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The database or a transaction on it: every query function takes one of these. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs the committed migrations, then db/functions.sql if it changed; safe when several instances start at once. */
  migrate(): Promise<void>;
  /** Connections in use and waiting, for the metrics. */
  poolStats(): PoolStats;
  close(): Promise<void>;
}

// int8 as bigint (row-types.ts). On pg's global registry, not a pool's `types`: drizzle hands every query
// its own type parsers, which fall back to the global ones.
pg.types.setTypeParser(INT8, parseInt8);
// pg's type list names no array types, hence the casts.
const oid = (n: number) => n as Parameters<typeof pg.types.getTypeParser>[0];
const textArray = pg.types.getTypeParser(oid(TEXT_ARRAY)) as (v: string) => (string | null)[];
pg.types.setTypeParser(oid(INT8_ARRAY), (v) => textArray(v).map((x) => (x === null ? null : parseInt8(x))));

export function openPostgres(url: string, poolSize = 10): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client losing its server (restart, failover) must not crash the process.
  pool.on('error', () => undefined);
  // So must a client lent out to a transaction that loses its server between two queries (pg-pool takes
  // its own listener off while a client is lent out, and an 'error' event with no listener throws): the
  // next query fails, the transaction is abandoned, and the pool drops the client when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));
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
        await applyFunctions({
          script: async (text) => void (await client.query(text)),
          value: async (text) => (await client.query<{ value: string }>(text)).rows[0]?.value,
        });
      } finally {
        await client.query('SELECT pg_advisory_unlock(7261001)').catch(() => undefined);
        await client.end();
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolSize }),
    close: () => pool.end(),
  };
}

/** PostgreSQL with DATABASE_URL, else the embedded PGlite (its module is loaded only then: db/pglite.ts). */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
}): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.poolSize);
  const { openPglite } = await import('./pglite.ts');
  return openPglite(opts.dataDir);
}
