/**
 * `npm run bench:por`: times a proof-of-reserves snapshot of the database the settings name (DATABASE_URL or
 * DATA_DIR), e.g. after `npm run seed:large -- --users 1000000`, then one inclusion proof, and prints the peak heap:
 * the tree is built in 1024-leaf subtrees, so memory grows with the number of subtrees, not of users.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { rawRows } from '../../apps/server/src/db/raw.ts';
import { proofFor, takeSnapshot } from '../../apps/server/src/modules/proof-of-reserves/por.service.ts';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 4 });
await database.migrate();
const { app, ctx } = await buildApp({ config, database, secret: randomBytes(32).toString('hex') });
let peak = 0;
const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 50);
try {
  const t0 = performance.now();
  const s = await takeSnapshot(ctx);
  const t1 = performance.now();
  const [leaf] = await rawRows<{ user_id: string }>(
    ctx.db,
    sql`SELECT user_id::text FROM por_leaves WHERE snapshot_id = ${s.id}::uuid AND idx = ${s.leaves - 1}`,
  );
  const proof = await proofFor(ctx, leaf!.user_id, s.id);
  const t2 = performance.now();
  console.log(
    [
      `snapshot of ${s.leaves} users (total ${s.total} USDC): ${((t1 - t0) / 1000).toFixed(1)} s (target: under 60 s)`,
      `one inclusion proof (${proof.path.length} steps): ${(t2 - t1).toFixed(0)} ms`,
      `peak heap: ${(peak / 2 ** 20).toFixed(0)} MiB`,
    ].join('\n'),
  );
} finally {
  clearInterval(sample);
  await app.close();
  await database.close();
}
