/**
 * `npm run bench:por`: times a proof-of-reserves snapshot of the database the settings name (DATABASE_URL or
 * DATA_DIR), e.g. after `npm run seed:large -- --users 1000000`, then one inclusion proof, and prints the peak
 * resident memory and heap: the tree is built in 1024-leaf subtrees, so memory grows with the number of subtrees,
 * not of users. A bulk seed writes its ledger without the hash chain, so the chain is caught up first (the
 * ledger-chain job's work, timed apart): a snapshot only extends it over what committed since.
 */
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { rawRows } from '../../apps/server/src/db/raw.ts';
import { extendChain } from '../../apps/server/src/ledger/hash-chain.ts';
import { proofFor, takeSnapshot } from '../../apps/server/src/modules/proof-of-reserves/por.service.ts';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 4 });
await database.migrate();
const { app, ctx } = await buildApp({ config, database, secret: randomBytes(32).toString('hex') });
const mib = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;
try {
  const c0 = performance.now();
  const head = await extendChain(ctx.db);
  console.log(
    `ledger chain caught up to transaction ${head.headId}: ${((performance.now() - c0) / 1000).toFixed(1)} s`,
  );
  let peakRss = 0;
  let peakHeap = 0;
  const sample = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 50);
  const rssBefore = process.memoryUsage().rss;
  const load = os.loadavg();
  const t0 = performance.now();
  const s = await takeSnapshot(ctx);
  const t1 = performance.now();
  clearInterval(sample);
  const [leaf] = await rawRows<{ user_id: string }>(
    ctx.db,
    sql`SELECT user_id::text FROM por_leaves WHERE snapshot_id = ${s.id}::uuid AND idx = ${s.leaves - 1}`,
  );
  const proof = await proofFor(ctx, leaf!.user_id, s.id);
  const t2 = performance.now();
  console.log(
    [
      `snapshot of ${s.leaves} leaves, ${s.investors} investors (total ${s.total} USDC): ${((t1 - t0) / 1000).toFixed(1)} s (target: under 60 s)`,
      `one inclusion proof (${proof.path.length} steps): ${(t2 - t1).toFixed(0)} ms`,
      `peak RSS during the snapshot: ${mib(peakRss)} (${mib(rssBefore)} before it); peak heap: ${mib(peakHeap)}`,
      `load average at its start (1/5/15 min, ${os.cpus().length} cores): ${load.map((l) => l.toFixed(2)).join(' / ')}`,
    ].join('\n'),
  );
} finally {
  await app.close();
  await database.close();
}
