import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
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
  /**
   * A LISTEN on `channel` that stays up: messages and the link's state go to `handler` (`up` after
   * every (re)connection, once the LISTEN holds; `down` when it is lost). On PostgreSQL a connection of
   * its own outside the pool, reconnecting after a loss; on PGlite the embedded database's own listener.
   */
  listen(channel: string, handler: ListenHandler): NotifyLink;
  close(): Promise<void>;
}

export interface ListenHandler {
  message(payload: string): void;
  up(): void;
  down(): void;
}

/** The sending side of a `listen`: NOTIFY on its channel, over the same connection. */
export interface NotifyLink {
  /**
   * Every listener has a notification before the transaction that sent it finishes committing (PGlite:
   * one process, delivered in the committing call); on PostgreSQL each listener receives it later.
   */
  readonly deliveredAtCommit: boolean;
  /** Rejects when the link is down. */
  send(payload: string): Promise<void>;
  close(): Promise<void>;
}

// BIGINT (int8) as JS bigint on node-postgres, matching PGlite and drizzle's bigint columns.
pg.types.setTypeParser(20, (v) => BigInt(v));

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
      } finally {
        await client.query('SELECT pg_advisory_unlock(7261001)').catch(() => undefined);
        await client.end();
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolSize }),
    listen: (channel, handler) => listenPostgres(url, channel, handler),
    close: () => pool.end(),
  };
}

/** Reconnection delays after a lost LISTEN connection (ms), the last one repeated. */
const RELISTEN_MS = [50, 200, 1000, 2000];

function listenPostgres(url: string, channel: string, handler: ListenHandler): NotifyLink {
  let client: pg.Client | null = null;
  let live = false;
  let closed = false;
  let failures = 0;
  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    if (live) handler.down();
    live = false;
    c.end().catch(() => undefined);
    if (closed) return;
    const wait = RELISTEN_MS[Math.min(failures++, RELISTEN_MS.length - 1)];
    setTimeout(connect, wait).unref();
  };
  const connect = () => {
    if (closed) return;
    // Named, so an operator sees these connections for what they are (pg_stat_activity).
    const c = new pg.Client({ connectionString: url, application_name: 'hf-sessions' });
    client = c;
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    c.on('notification', (n) => {
      if (client === c && live && n.channel === channel) handler.message(n.payload ?? '');
    });
    c.connect()
      .then(() => c.query(`LISTEN "${channel}"`))
      .then(() => {
        if (client !== c) return;
        if (closed) return void c.end().catch(() => undefined);
        failures = 0;
        live = true;
        handler.up();
      })
      .catch(() => lost(c));
  };
  connect();
  return {
    deliveredAtCommit: false,
    async send(payload) {
      if (!client || !live) throw new Error('LISTEN connection down');
      await client.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      closed = true;
      const c = client;
      client = null;
      if (live) handler.down();
      live = false;
      await c?.end().catch(() => undefined);
    },
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
