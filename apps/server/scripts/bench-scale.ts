/**
 * `npm run bench:scale`: two server instances on one PostgreSQL, behind nothing but distinct ports.
 *
 *  1. Throughput: the dashboard and invest under load on one instance, then the same load spread
 *     over two instances at once (same total connections); requests/s of each side.
 *  2. The ledger check after the writes of both instances (must be green).
 *  3. Background jobs do not double-process: P pending real deposits, a fake JSON-RPC chain that
 *     answers "transaction not found" and counts receipt look-ups per hash, both instances running
 *     the deposit re-check job every 300 ms. Each deposit must be looked up exactly once (the
 *     claim is FOR UPDATE SKIP LOCKED with a lease; not found schedules the next check later)
 *     and its check_attempts must be exactly 1.
 *
 * Env as bench.ts (BENCH_DATABASE_URL/DATABASE_URL or a throwaway cluster, BENCH_USERS, BENCH_DURATION,
 * BENCH_CONNECTIONS, BENCH_TOKENS, BENCH_POOL), BENCH_DEPOSITS (pending deposits, 400).
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openPostgres } from '../src/db/client.ts';
import { rawRows } from '../src/db/raw.ts';
import { checkLedger } from '../src/ledger/check.ts';
import { SettableClock } from '../src/lib/clock.ts';
import { TokenService } from '../src/lib/tokens.ts';
import {
  benchDay,
  benchServerEnv,
  ensurePostgres,
  envNumber,
  fmt,
  freePort,
  load,
  machine,
  SERVER_DIR,
  setServerClock,
  sleep,
  startTs,
  type Child,
  type LoadResult,
  SERVER_READY_PATH,
} from './bench-lib.ts';
import { seedLarge } from './seed-large.ts';

const DURATION = envNumber('BENCH_DURATION', 10);
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 16);
const TOKENS = envNumber('BENCH_TOKENS', 5000);
const POOL = envNumber('BENCH_POOL', 10);
const DEPOSITS = envNumber('BENCH_DEPOSITS', 400);
const TTL = 30 * 24 * 3600;

/** A JSON-RPC endpoint that knows no transaction: counts eth_getTransactionReceipt per hash. */
function fakeChain(chainId: number) {
  const lookups = new Map<string, number>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const parsed: unknown = JSON.parse(body || '{}');
      const answer = (m: { id?: unknown; method?: string; params?: unknown[] }) => {
        if (m.method === 'eth_getTransactionReceipt') {
          const h = String(m.params?.[0] ?? '').toLowerCase();
          lookups.set(h, (lookups.get(h) ?? 0) + 1);
          return { jsonrpc: '2.0', id: m.id, result: null };
        }
        if (m.method === 'eth_chainId') return { jsonrpc: '2.0', id: m.id, result: `0x${chainId.toString(16)}` };
        if (m.method === 'eth_blockNumber') return { jsonrpc: '2.0', id: m.id, result: '0x100' };
        return { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'method not found' } };
      };
      const out = Array.isArray(parsed) ? parsed.map(answer) : answer(parsed as Parameters<typeof answer>[0]);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(out));
    });
  });
  return { server, lookups };
}

async function main() {
  console.log(`Machine: ${machine()}`);
  const pgHandle = await ensurePostgres();
  const url = pgHandle.url;
  const database = openPostgres(url, 4);
  const db = database.db;
  const children: Child[] = [];
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'hf-scale-'));
  const chain = fakeChain(137);
  try {
    await database.migrate();
    const [{ n: seeded } = { n: 0 }] = await rawRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM users WHERE email LIKE '%@seed.harvest'`,
    );
    if (seeded === 0) await seedLarge(db, envNumber('BENCH_USERS', 100_000));

    const day = benchDay();
    const clock = new SettableClock();
    clock.set(day);
    const secret = randomBytes(32).toString('hex');
    const tokens = new TokenService(secret, TTL, clock);
    const [tier] = await rawRows<{ amount: string }>(
      db,
      sql`SELECT amount::text AS amount FROM tiers WHERE active ORDER BY amount LIMIT 1`,
    );
    const tierUsdc = Number(tier?.amount ?? 0) / 1e6;
    const users = await rawRows<{ id: string; tv: number }>(
      db,
      sql`SELECT u.id::text AS id, u.token_version AS tv FROM users u JOIN ledger_accounts a ON a.user_id = u.id AND a.kind = 'balance'
          WHERE u.email LIKE '%@seed.harvest' AND NOT u.is_blocked AND a.balance >= ${BigInt(tier?.amount ?? 0) * 20n} ORDER BY random() LIMIT ${TOKENS}`,
    );
    const tokenList = await Promise.all(users.map((u) => tokens.sign({ sub: u.id, tv: u.tv })));
    const auth = (i: number) => `Bearer ${tokenList[i % tokenList.length]}`;

    // Pending real deposits for the job check (unique hashes of this run).
    const run = randomBytes(4).toString('hex');
    await db.execute(sql`INSERT INTO deposits (user_id, amount, status, type, tx_hash, from_address, created_at)
      SELECT u.id, 10000000, 'pending', 'real', '0x' || md5(${run} || g) || md5('b' || ${run} || g), '0x' || substr(md5('f' || g), 1, 40), now()
      FROM generate_series(1, ${DEPOSITS}) g JOIN LATERAL (SELECT id FROM users WHERE email = 'seed' || (1 + g % 1000) || '@seed.harvest') u ON true`);
    const hashes = (
      await rawRows<{ h: string }>(
        db,
        sql`SELECT tx_hash AS h FROM deposits WHERE tx_hash LIKE ${'0x' + '%'} AND status = 'pending' AND type = 'real' AND created_at > now() - interval '1 minute'`,
      )
    ).map((r) => r.h);

    await new Promise<void>((r) => chain.server.listen(0, '127.0.0.1', () => r()));
    const addr = chain.server.address();
    const rpcUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

    const start = async (name: string, withChain: boolean) => {
      const child = await startTs(
        path.join(SERVER_DIR, 'src/server.ts'),
        {
          ...benchServerEnv({ url, secret, ttlSeconds: TTL, dataDir: path.join(tmp, name), pool: POOL }),
          CHAIN_RPC_URL: withChain ? rpcUrl : '',
          DEPOSIT_CHECK_INTERVAL_MS: '300',
        },
        SERVER_READY_PATH,
        await freePort(),
      );
      await setServerClock(child.url, day);
      children.push(child);
      return child;
    };
    const dashboard = (u: string, conns: number, offset: number) =>
      load({
        url: u,
        connections: conns,
        duration: DURATION,
        request: (i) => ({ path: '/api/user/dashboard', headers: { authorization: auth(i * 2 + offset) } }),
      });
    const invest = (u: string, conns: number, offset: number) =>
      load({
        url: u,
        connections: conns,
        duration: DURATION,
        request: (i) => ({
          method: 'POST',
          path: '/api/user/invest',
          headers: { authorization: auth(i * 2 + offset) },
          body: JSON.stringify({ amount: tierUsdc }),
        }),
      });
    const sum = (rs: LoadResult[]) => ({
      rps: rs.reduce((s, r) => s + r.rps, 0),
      errors: rs.reduce((s, r) => s + r.errors, 0),
      p99: Math.max(...rs.map((r) => r.p99)),
    });

    // One instance (no chain: the job stays idle during the load runs).
    const a = await start('a', false);
    await dashboard(a.url, CONNECTIONS, 0);
    const oneDash = await dashboard(a.url, CONNECTIONS, 0);
    const oneInvest = await invest(a.url, CONNECTIONS, 0);
    // Two instances, the same total connections spread over both.
    const b = await start('b', false);
    await dashboard(b.url, CONNECTIONS, 1);
    const twoDash = sum(
      await Promise.all([dashboard(a.url, CONNECTIONS / 2, 0), dashboard(b.url, CONNECTIONS / 2, 1)]),
    );
    const twoInvest = sum(await Promise.all([invest(a.url, CONNECTIONS / 2, 0), invest(b.url, CONNECTIONS / 2, 1)]));
    await a.stop();
    await b.stop();
    const violations = await checkLedger(db);

    // The job on two instances over the same pending deposits.
    const ja = await start('ja', true);
    const jb = await start('jb', true);
    await sleep(8000);
    await ja.stop();
    await jb.stop();
    const counts = hashes.map((h) => chain.lookups.get(h.toLowerCase()) ?? 0);
    const once = counts.filter((c) => c === 1).length;
    const twice = counts.filter((c) => c > 1).length;
    const never = counts.filter((c) => c === 0).length;
    const attempts = await rawRows<{ a: number; n: number }>(
      db,
      sql`SELECT check_attempts AS a, count(*)::int AS n FROM deposits WHERE tx_hash IN (SELECT unnest(${`{${hashes.join(',')}}`}::text[])) GROUP BY 1 ORDER BY 1`,
    );

    const lines = [
      `Machine: ${machine()}`,
      `Load: ${CONNECTIONS} connections in total, ${DURATION} s per run, ${tokenList.length} distinct users, pool ${POOL} per instance`,
      '',
      '| Load | 1 instance req/s | 2 instances req/s | gain | errors (1 / 2) |',
      '|---|---:|---:|---:|---|',
      `| GET /api/user/dashboard | ${fmt(oneDash.rps, 0)} | ${fmt(twoDash.rps, 0)} | x${fmt(twoDash.rps / oneDash.rps, 2)} | ${oneDash.errors} / ${twoDash.errors} |`,
      `| POST /api/user/invest | ${fmt(oneInvest.rps, 0)} | ${fmt(twoInvest.rps, 0)} | x${fmt(twoInvest.rps / oneInvest.rps, 2)} | ${oneInvest.errors} / ${twoInvest.errors} |`,
      '',
      `Ledger check after both instances' writes: ${violations.length} violation(s)`,
      `Deposit re-check job on 2 instances (every 300 ms, 8 s), ${hashes.length} pending real deposits: looked up once ${once}, more than once ${twice}, never ${never}; check_attempts ${attempts.map((r) => `${r.a}: ${r.n}`).join(', ')}`,
    ];
    console.log(`\n${lines.join('\n')}\n`);
    // Leave no pending fakes behind for the next run: mark them failed (a state change the app itself makes).
    await db.execute(
      sql`UPDATE deposits SET status = 'failed', failure_reason = 'bench:scale fake deposit', processed_at = now() WHERE tx_hash IN (SELECT unnest(${`{${hashes.join(',')}}`}::text[])) AND status = 'pending'`,
    );
    if (violations.length > 0 || twice > 0 || never > 0) process.exitCode = 1;
  } finally {
    for (const c of children) await c.stop().catch(() => undefined);
    chain.server.close();
    await database.close().catch(() => undefined);
    await pgHandle.stop().catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
