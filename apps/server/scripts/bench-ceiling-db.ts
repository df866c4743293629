/**
 * Database ceilings for `npm run bench`: primary-key selects of a user row (the query the auth hook
 * runs on every request), CONCURRENCY loops for SECONDS each, in its own process, through:
 *  - `app`: the app's own path (drizzle over openPostgres's node-postgres pool), the L_db of the bench;
 *  - `pg`: node-postgres directly (same pool size, unnamed statements);
 *  - `pg-prepared`: node-postgres with a named (prepared) statement;
 *  - `postgres`: the `postgres` driver (prepared statements, pipelining over the same number of connections).
 * Prints {"qps": app, "variants": {...}} as its last line.
 */
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import postgres from 'postgres';
import { openPostgres } from '../src/db/client.ts';
import { rawRows } from '../src/db/raw.ts';
import { users } from '../src/db/schema.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const seconds = Number(process.env.SECONDS ?? 10);
const altSeconds = Number(process.env.ALT_SECONDS ?? Math.max(2, seconds / 2));
const concurrency = Number(process.env.CONCURRENCY ?? 16);
const poolSize = Number(process.env.DATABASE_POOL_SIZE ?? 10);
const database = openPostgres(url, poolSize);
const ids = (
  await rawRows<{ id: string }>(database.db, sql`SELECT id::text AS id FROM users ORDER BY random() LIMIT 5000`)
).map((r) => r.id);
if (ids.length === 0) throw new Error('no users');

/** Runs `select(id)` in CONCURRENCY loops for `secs` after a warm-up; selects per second. */
async function measure(secs: number, select: (id: string) => Promise<unknown>): Promise<number> {
  await Promise.all(Array.from({ length: concurrency }, (_, i) => select(ids[i % ids.length] ?? '')));
  let n = 0;
  const end = performance.now() + secs * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      let i = w;
      while (performance.now() < end) {
        await select(ids[i % ids.length] ?? '');
        i += concurrency;
        n++;
      }
    }),
  );
  return n / secs;
}

const TEXT = 'SELECT * FROM users WHERE id = $1 LIMIT 1';
const app = await measure(seconds, (id) => database.db.select().from(users).where(eq(users.id, id)).limit(1));
await database.close();

const pool = new pg.Pool({ connectionString: url, max: poolSize });
const raw = await measure(altSeconds, (id) => pool.query(TEXT, [id]));
const prepared = await measure(altSeconds, (id) => pool.query({ name: 'user_by_id', text: TEXT, values: [id] }));
await pool.end();

const pgjs = postgres(url, { max: poolSize, prepare: true, onnotice: () => undefined });
const porsager = await measure(altSeconds, (id) => pgjs`SELECT * FROM users WHERE id = ${id} LIMIT 1`);
await pgjs.end();

console.log(JSON.stringify({ qps: app, variants: { app, pg: raw, 'pg-prepared': prepared, postgres: porsager } }));
