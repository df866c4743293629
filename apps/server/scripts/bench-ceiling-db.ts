/**
 * Database ceiling for `npm run bench`: primary-key selects of a user row (the query the auth hook
 * runs on every request) through the app's own driver and pool (openPostgres), CONCURRENCY loops
 * for SECONDS, in its own process. Prints {"qps": n} as its last line.
 */
import { eq, sql } from 'drizzle-orm';
import { openPostgres } from '../src/db/client.ts';
import { rawRows } from '../src/db/raw.ts';
import { users } from '../src/db/schema.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const seconds = Number(process.env.SECONDS ?? 10);
const concurrency = Number(process.env.CONCURRENCY ?? 16);
const database = openPostgres(url, Number(process.env.DATABASE_POOL_SIZE ?? 10));
const ids = (
  await rawRows<{ id: string }>(database.db, sql`SELECT id::text AS id FROM users ORDER BY random() LIMIT 5000`)
).map((r) => r.id);
if (ids.length === 0) throw new Error('no users');
// Warm-up: open every pooled connection.
await Promise.all(
  Array.from({ length: concurrency }, (_, i) =>
    database.db
      .select()
      .from(users)
      .where(eq(users.id, ids[i % ids.length] ?? ''))
      .limit(1),
  ),
);
let n = 0;
const end = performance.now() + seconds * 1000;
await Promise.all(
  Array.from({ length: concurrency }, async (_, w) => {
    let i = w;
    while (performance.now() < end) {
      await database.db
        .select()
        .from(users)
        .where(eq(users.id, ids[i % ids.length] ?? ''))
        .limit(1);
      i += concurrency;
      n++;
    }
  }),
);
console.log(JSON.stringify({ qps: n / seconds }));
await database.close();
