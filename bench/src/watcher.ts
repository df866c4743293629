/**
 * `npm run bench:watcher`: the chain watcher's pace, in-process (the one bench that is not over HTTP):
 * blocks and USDC Transfer logs per second the deposit watcher reads from anvil and matches
 * against BENCH_WATCHER_ADDRESSES (100,000) investor deposit addresses in PostgreSQL, as a multiple
 * of Polygon's pace (a block about every 2 s, a few hundred USDC transfers per block).
 *
 * Workload: BENCH_WATCHER_BLOCKS (300) blocks of BENCH_WATCHER_PER_BLOCK (300) USDC transfers each
 * (one transferMany call per block), 1 % of them to investors' addresses, the rest to strangers;
 * one catch-up pass with the default ranges (at most SCAN_BLOCKS_MAX blocks, sized for LOGS_PER_READ logs,
 * READ_AHEAD read ahead): it reads the blocks DEPOSIT_CONFIRMATIONS (30) deep, matches, records the deposits
 * and credits them through the ledger.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Address } from 'viem';
import { buildApp } from '../../apps/server/src/app.ts';
import { unavailableText } from '../../apps/server/src/chain/chain.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openPostgres } from '../../apps/server/src/db/client.ts';
import { rawRows } from '../../apps/server/src/db/raw.ts';
import { checkLedger } from '../../apps/server/src/ledger/check.ts';
import { USER_ACCOUNT_KINDS } from '../../apps/server/src/db/schema.ts';
import { DepositWatcher } from '../../apps/server/src/modules/deposits/deposit-watcher.ts';
import { LOGS_PER_READ, READ_AHEAD, SCAN_BLOCKS_MAX } from '../../apps/server/src/modules/deposits/watcher-ranges.ts';
import { createCursor } from '../../apps/server/src/modules/deposits/watcher.queries.ts';
import { deployToken, sendToken, startAnvil } from '../../apps/server/test/anvil.ts';
import { devXpub } from '../../apps/server/test/support/dev-wallet.ts';
import { startPostgres, withDatabase } from './cluster.ts';

const envNumber = (name: string, fallback: number) => Number(process.env[name] || fallback);
const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

/** Polygon PoS: a block about every 2 s, a few hundred USDC transfers in it. */
const POLYGON_BLOCKS_PER_S = 0.5;
const POLYGON_TRANSFERS_PER_BLOCK = 300;

interface WatcherBenchRow {
  scanBlocks: number;
  blocks: number;
  transfers: number;
  recorded: number;
  credited: number;
  seconds: number;
  /** Summed time inside eth_getLogs calls, and their number. */
  nodeSeconds: number;
  calls: number;
  blocksPerS: number;
  transfersPerS: number;
  /** Blocks per second over Polygon's (0.5/s). */
  multiple: number;
}

const randomAddress = () => `0x${randomBytes(20).toString('hex')}` as Address;

async function watcherBench(pgUrl: string): Promise<{ rows: WatcherBenchRow[]; lines: string[] }> {
  const ADDRESSES = envNumber('BENCH_WATCHER_ADDRESSES', 100_000);
  const BLOCKS = envNumber('BENCH_WATCHER_BLOCKS', 300);
  const PER_BLOCK = envNumber('BENCH_WATCHER_PER_BLOCK', 300);
  const CONFIRMATIONS = 30;
  const name = 'hf_bench_watcher';
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const database = openPostgres(withDatabase(pgUrl, name), 4);
  const chain = await startAnvil({ chainId: 137 });
  const rows: WatcherBenchRow[] = [];
  try {
    const { db } = database;
    await database.migrate();
    // 100,000 investors with their accounts and deposit addresses (random: derivation is not what is measured).
    await db.execute(sql`INSERT INTO users (email, first_name, last_name, password_hash, withdrawal_password_hash)
      SELECT 'w' || g || '@bench.watcher', 'Watcher', 'Bench', 'x', 'x' FROM generate_series(1, ${ADDRESSES}) g`);
    await db.execute(sql`INSERT INTO ledger_accounts (user_id, kind)
      SELECT u.id, k FROM users u, unnest(${sql.raw(`ARRAY['${USER_ACCOUNT_KINDS.join("','")}']`)}) k`);
    await db.execute(sql`INSERT INTO deposit_addresses (user_id, child_index, address)
      SELECT id, row_number() OVER (ORDER BY id) - 1,
        '0x' || substr(md5(random()::text) || md5(random()::text), 1, 40) FROM users`);
    await db.execute(sql`ANALYZE`);
    const investors = (
      await rawRows<{ address: string }>(db, sql`SELECT address FROM deposit_addresses ORDER BY random() LIMIT 5000`)
    ).map((r) => r.address as Address);

    const token = await deployToken(chain);
    const from = chain.accounts[0] as Address;
    await sendToken(chain, token, from, 'mint', [from, 10n ** 15n]);
    const startBlock = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
    const startHash = (await chain.publicClient.getBlock({ blockNumber: startBlock })).hash;
    const t0 = performance.now();
    let k = 0;
    let last: `0x${string}` | null = null;
    for (let b = 0; b < BLOCKS; b++) {
      const to = Array.from({ length: PER_BLOCK }, (_, i) =>
        i % 100 === 0 ? (investors[k++ % investors.length] as Address) : randomAddress(),
      );
      // Automine: every call is a block; only the last one is waited for.
      last = await chain.wallet.writeContract({
        address: token.address,
        abi: token.abi,
        functionName: 'transferMany',
        args: [to, 1_000_000n],
        account: from,
        chain: chain.wallet.chain,
        gas: 29_000_000n,
      });
    }
    if (last) await chain.publicClient.waitForTransactionReceipt({ hash: last, pollingInterval: 50, timeout: 900_000 });
    await chain.mine(CONFIRMATIONS);
    const makeS = (performance.now() - t0) / 1000;

    const env = (confirmations: number) =>
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        RATE_LIMITS: 'off',
        DATABASE_URL: withDatabase(pgUrl, name),
        CHAIN_RPC_URL: chain.url,
        CHAIN_ID: '137',
        USDC_CONTRACTS: token.address,
        DEPOSIT_XPUB: devXpub(),
        DEPOSIT_CONFIRMATIONS: String(confirmations),
        DEPOSIT_ADDRESS: '0x1111111111111111111111111111111111111111',
      });
    const secret = randomBytes(32).toString('hex');
    // The watcher reads as final only blocks DEPOSIT_CONFIRMATIONS deep and credits what it reads there
    // (decision 0068): one catch-up pass that reads, matches, records and credits, with the default ranges.
    const readOnly = await buildApp({ config: env(CONFIRMATIONS), database, secret });
    const runs: [number, typeof readOnly.ctx][] = [[SCAN_BLOCKS_MAX, readOnly.ctx]];
    const endBlock = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
    const p0 = performance.now();
    const raw = await fetch(chain.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_getLogs',
        params: [
          {
            address: token.address,
            fromBlock: `0x${(startBlock + 1n).toString(16)}`,
            toBlock: `0x${endBlock.toString(16)}`,
          },
        ],
      }),
    }).then((r) => r.json() as Promise<{ result: unknown[] }>);
    const rawS = (performance.now() - p0) / 1000;
    const p1 = performance.now();
    const decoded = await readOnly.ctx.chain!.usdcTransfers(startBlock + 1n, endBlock);
    const adapterS = (performance.now() - p1) / 1000;
    const profile = `Profile, whole chain in one call: eth_getLogs alone ${fmt(rawS, 2)} s for ${raw.result.length} logs; through the adapter (viem, decoded) ${fmt(adapterS, 2)} s (${decoded.ok ? decoded.value.length : `failed: ${unavailableText(decoded.error)}`})`;
    try {
      for (const [scanBlocks, ctx] of runs) {
        await db.execute(sql`DELETE FROM deposits`);
        await db.execute(sql`DELETE FROM chain_checkpoints`);
        await db.execute(sql`DELETE FROM chain_cursors`);
        await createCursor(db, 'deposits', startBlock, startHash.toLowerCase(), ctx.clock.now());
        const w = new DepositWatcher(ctx, { scanBlocks });
        // Time inside eth_getLogs calls (summed; reads ahead overlap the database work).
        const chainApi = ctx.chain!;
        const original = chainApi.usdcTransfers;
        let nodeMs = 0;
        let calls = 0;
        chainApi.usdcTransfers = async (a, b) => {
          const c0 = performance.now();
          try {
            return await original(a, b);
          } finally {
            nodeMs += performance.now() - c0;
            calls++;
          }
        };
        const s0 = performance.now();
        const r = await w.pass().finally(() => (chainApi.usdcTransfers = original));
        const seconds = (performance.now() - s0) / 1000;
        if (r.stopped)
          throw new Error(
            `watcher pass (range ${scanBlocks}) stopped: ${r.stopped} ${w.status().lastError ?? ''} after ${r.blocks} blocks`,
          );
        rows.push({
          scanBlocks,
          blocks: r.blocks,
          transfers: r.transfers,
          recorded: r.recorded,
          credited: r.credited,
          seconds,
          nodeSeconds: nodeMs / 1000,
          calls,
          blocksPerS: r.blocks / seconds,
          transfersPerS: r.transfers / seconds,
          multiple: r.blocks / seconds / POLYGON_BLOCKS_PER_S,
        });
      }
      const violations = await checkLedger(db);
      const lines = [
        `Watcher: ${ADDRESSES} investor addresses in PostgreSQL; anvil chain of ${BLOCKS} blocks x ${PER_BLOCK} USDC transfers (1 % to investors) + ${CONFIRMATIONS} empty, made in ${fmt(makeS, 1)} s; one catch-up pass per range (read, match, record, credit)`,
        '',
        `| Watcher largest range (blocks; sized for ${LOGS_PER_READ} logs, ${READ_AHEAD} read ahead) | blocks | transfers | deposits recorded / credited | eth_getLogs calls (s inside) | s | blocks/s | transfers/s | x Polygon pace |`,
        '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
        ...rows.map(
          (r) =>
            `| ${r.scanBlocks} | ${r.blocks} | ${r.transfers} | ${r.recorded} / ${r.credited} | ${r.calls} (${fmt(r.nodeSeconds, 2)}) | ${fmt(r.seconds, 2)} | ${fmt(r.blocksPerS, 0)} | ${fmt(r.transfersPerS, 0)} | ${fmt(r.multiple, 0)}x (target >= 100x; Polygon ${POLYGON_BLOCKS_PER_S} blocks/s, ~${POLYGON_TRANSFERS_PER_BLOCK * POLYGON_BLOCKS_PER_S} transfers/s) |`,
        ),
        profile,
        `Ledger check after the watcher passes: ${violations.length} violation(s)`,
      ];
      return { rows, lines };
    } finally {
      await readOnly.app.close();
    }
  } finally {
    await chain.stop();
    await database.close();
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  }
}

const pgs = await startPostgres();
try {
  const { lines } = await watcherBench(pgs.admin);
  console.log(`\n${lines.join('\n')}\n`);
} finally {
  pgs.stop();
}
