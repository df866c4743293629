/**
 * `npm run bench [-- --users N] [--compare DIR]`: the largest number of concurrently active investors a server
 * serves with p99 under 100 ms and no errors, its endpoints at that load, and Withdraw All and analytics alone.
 * Method and options: bench/README.md.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { earnedPeriod, earnThousand, login, seedEmail, signIn, timedGet, withdrawAll } from './accounts.ts';
import { eachLimited } from './http.ts';
import { migrations, seed, startServer, type Server } from './checkout.ts';
import { copyDatabase, seededUsers, seedingMode, sql, startPostgres } from './cluster.ts';
import { percentile, passes, step, type Pool, type StepResult } from './load.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const { values: opt } = parseArgs({
  options: {
    users: { type: 'string', default: '100000' },
    compare: { type: 'string' },
    step: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '5' },
    start: { type: 'string', default: '100' },
    bisect: { type: 'string', default: '3' },
    admins: { type: 'string', default: '2' },
    p99: { type: 'string', default: '100' },
    max: { type: 'string', default: '20000' },
    alone: { type: 'string', default: '30' },
    'withdraw-all': { type: 'string', default: '5' },
    out: { type: 'string' },
  },
});
const num = (name: keyof typeof opt) => {
  const n = Number(opt[name]);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number`);
  return n;
};
const USERS = num('users');
const STEP_S = num('step');
const WARMUP_S = num('warmup');
const P99_MS = num('p99');
const MAX = num('max');
const ADMINS = num('admins');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const ms = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(1) : n.toFixed(0)) : 'n/a');
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');
const commit = (dir: string) => {
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir, ...args], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  try {
    const head = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain', '--untracked-files=no');
    return dirty ? `${head}+changes` : head;
  } catch {
    return 'not a git checkout';
  }
};

/**
 * Doubling from --start while steps pass, halving while they fail, then --bisect steps between the two. A failed
 * step is run once more before it counts: on a shared machine a neighbour's burst fails a step, and never passes one.
 */
class Search {
  lo: StepResult | null = null;
  hi: number | null = null;
  bisected = 0;
  next: number | null;
  log: string[] = [];
  private failedOnce: number | null = null;
  constructor(start: number) {
    this.next = start;
  }
  record(r: StepResult) {
    const n = r.investors;
    const ok = passes(r, P99_MS);
    this.log.push(`${int(n)} ${ok ? 'pass' : `fail (${r.errors ? `${r.errors} errors` : `p99 ${ms(r.p99)} ms`})`}`);
    if (!ok && this.failedOnce !== n) {
      this.failedOnce = n;
      return;
    }
    this.failedOnce = null;
    if (ok) this.lo = r;
    else this.hi = n;
    const lo = this.lo?.investors ?? 0;
    if (this.hi === null) this.next = lo >= MAX ? null : Math.min(MAX, lo * 2);
    else if (this.lo === null) this.next = this.hi <= 1 ? null : Math.floor(this.hi / 2);
    else if (this.bisected < num('bisect') && this.hi - lo > Math.max(1, lo * 0.05)) {
      this.next = Math.round((lo + this.hi) / 2);
      this.bisected++;
    } else this.next = null;
  }
}

/**
 * Waits out a server's start-up work on a seed it has not seen: the ledger's hash chain extended over the seed's
 * transactions (where the checkout keeps one; an upgraded platform does it once), then one proof-of-reserves
 * snapshot taken (where the checkout has them), as a running platform holds one: else the job would take the first
 * snapshot during a step.
 */
async function settle(s: Server, url: string, token: string) {
  const t0 = performance.now();
  const [chain] = await sql<{ kept: boolean }>(url, `SELECT to_regclass('ledger_chain_state') IS NOT NULL AS kept`);
  if (chain?.kept)
    for (;;) {
      const [r] = await sql<{ behind: string }>(
        url,
        `SELECT ((SELECT coalesce(max(id), 0) FROM ledger_transactions)
           - coalesce((SELECT head_id FROM ledger_chain_state WHERE id = 1), 0))::text AS behind`,
      );
      if (Number(r?.behind) <= 0) break;
      await sleep(2000);
    }
  const snapshot = await fetch(`${s.url}/api/admin/proof-of-reserves/snapshots`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  if (snapshot.status !== 404 && !snapshot.ok)
    throw new Error(`${s.label}: the proof-of-reserves snapshot -> ${snapshot.status} ${await snapshot.text()}`);
  console.log(`${s.label}: start-up work done in ${ms((performance.now() - t0) / 1000)} s`);
}

async function main() {
  const started = new Date();
  const loadBefore = loadAverage();
  const pgs = await startPostgres();
  const dirs = [ROOT, ...(opt.compare ? [path.resolve(opt.compare)] : [])];
  const servers: Server[] = [];
  let copy: string | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const s of servers) await s.stop().catch(() => undefined);
      if (copy && !pgs.owned) await sql(pgs.admin, `DROP DATABASE IF EXISTS hf_bench_newer`).catch(() => undefined);
      pgs.stop();
    })());
  // Interrupted (Ctrl-C): the servers and the throwaway cluster go too.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void cleanup().finally(() => process.exit(130)));
  try {
    // Seeding: with two checkouts whose migrations differ, the older seeds (its schema is where the newer's
    // migrations start), and the newer serves a copy it migrates forward at its start. A checkout that starts
    // from the baseline migration is newer than one without it: the baseline upgrades a fully migrated database.
    const journals = dirs.map(migrations);
    const [a = [], b = a] = journals;
    const prefix = (x: string[], y: string[]) => x.every((tag, i) => y[i] === tag);
    const baselined = (x: string[]) => x[0]?.endsWith('_baseline') ?? false;
    const same = a.length === b.length && prefix(a, b);
    if (!same && !prefix(a, b) && !prefix(b, a) && baselined(a) === baselined(b))
      throw new Error('The two checkouts have diverging migrations: compare checkouts on one line of history.');
    const older = same || prefix(a, b) ? 0 : prefix(b, a) ? 1 : baselined(a) ? 1 : 0;
    let seeded = await seededUsers(pgs.url);
    if (seeded === 0) {
      console.log(`Seeding ${int(USERS)} users with the seed of ${dirs[older]} ...`);
      await seedingMode(pgs, true);
      await seed(dirs[older] ?? ROOT, pgs.url, USERS);
      await seedingMode(pgs, false);
      seeded = await seededUsers(pgs.url);
    } else console.log(`The database holds ${int(seeded)} seeded users: not seeded again.`);
    const urls = dirs.map(() => pgs.url);
    if (!same) urls[1 - older] = copy = await copyDatabase(pgs, 'hf_bench_newer');

    const secret = randomBytes(32).toString('hex');
    // Each run's own administrator: on a kept database (BENCH_DATABASE_URL) an earlier run's has another password.
    const admin = {
      email: `bench-admin-${randomBytes(4).toString('hex')}@bench.harvest`,
      password: randomBytes(12).toString('hex'),
    };
    for (const [i, dir] of dirs.entries()) {
      const label = i === 0 ? `this checkout (${commit(dir)})` : `${dir} (${commit(dir)})`;
      const s = await startServer(label, dir, { databaseUrl: urls[i] ?? pgs.url, secret, admin });
      console.log(`${label}: ${s.compiled ? 'compiled build, as npm start' : 'TypeScript sources through tsx'}`);
      servers.push(s);
    }
    const [pgVersion] = await sql<{ v: string }>(pgs.admin, `SELECT current_setting('server_version') AS v`);
    const adminTokens = await Promise.all(servers.map((s) => login(s.url, admin.email, admin.password)));
    // What a server does once after an upgrade is not what it does under load: each is measured after it.
    for (const [i, s] of servers.entries()) await settle(s, urls[i] ?? pgs.url, adminTokens[i] ?? '');

    // Signed-in investors: one pool, shared by the servers when a token of one is good on the other.
    const first = servers[0] as Server;
    const pools = new Map<Server, Pool>([[first, { tokens: [], next: 0 }]]);
    await signIn(first.url, pools.get(first)?.tokens ?? [], 1, seeded);
    for (const s of servers.slice(1)) {
      const probe = await fetch(`${s.url}/api/user/me`, {
        headers: { authorization: `Bearer ${pools.get(first)?.tokens[0]}` },
      });
      pools.set(s, probe.ok ? (pools.get(first) as Pool) : { tokens: [], next: 0 });
    }

    // The search, the servers taking turns step by step.
    const searches = new Map(servers.map((s) => [s, new Search(num('start'))]));
    for (let round = 0; [...searches.values()].some((x) => x.next !== null); round++) {
      for (const [s, search] of searches) {
        const n = search.next;
        if (n === null) continue;
        const pool = pools.get(s) as Pool;
        // As many signed-in investors as slots: a slot's next session takes the next one, so over a step some
        // investors have two sessions at once (two devices).
        const want = Math.min(n, seeded);
        if (pool.tokens.length < want) {
          const t0 = performance.now();
          const more = want - pool.tokens.length;
          // A shared pool is filled through the first server: its tokens are the ones both accept.
          await signIn(pool === pools.get(first) ? first.url : s.url, pool.tokens, more, seeded);
          console.log(`  signed in ${int(more)} more investors in ${ms((performance.now() - t0) / 1000)} s`);
        }
        const r = await step(s.url, pool, adminTokens[servers.indexOf(s)] ?? '', {
          investors: n,
          admins: ADMINS,
          seconds: STEP_S,
          warmupS: WARMUP_S,
          seed: n,
        });
        search.record(r);
        console.log(
          `  ${s.label}: ${int(n)} investors, ${int(r.rps)} req/s, p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms, ` +
            `${r.errors} errors, sent late by ${ms(r.lateP99)} ms (p99)${r.firstError ? ` (${r.firstError})` : ''}: ${passes(r, P99_MS) ? 'pass' : 'fail'}`,
        );
        await sleep(1000);
      }
    }

    // Overload: each server at twice the count it served, with Withdraw All sent meanwhile by investors of their own
    // (the oldest seeded ones, a block per server: the newest earn for the Withdraw All timed alone below).
    const overload = servers.map(() => null as StepResult | null);
    const moneyEveryMs = 500;
    const moneyCount = Math.ceil(((WARMUP_S + STEP_S) * 1000) / moneyEveryMs);
    for (const [i, s] of servers.entries()) {
      const served = searches.get(s)?.lo?.investors;
      if (!served) continue;
      const n = 2 * served;
      const pool = pools.get(s) as Pool;
      const want = Math.min(n, seeded);
      if (pool.tokens.length < want)
        await signIn(pool === pools.get(first) ? first.url : s.url, pool.tokens, want - pool.tokens.length, seeded);
      const money: string[] = [];
      const emails = Array.from({ length: moneyCount }, (_, k) => seedEmail(1 + i * moneyCount + k));
      await eachLimited(emails, 4, async (email) => void money.push(await login(s.url, email)));
      const r = await step(s.url, pool, adminTokens[i] ?? '', {
        investors: n,
        admins: ADMINS,
        seconds: STEP_S,
        warmupS: WARMUP_S,
        seed: n,
        money: { tokens: money, everyMs: moneyEveryMs },
      });
      overload[i] = r;
      console.log(
        `  ${s.label}: overload, ${int(n)} investors: ${int(r.answered.requests / r.seconds)} answered/s, ` +
          `p50 ${ms(r.answered.p50)} ms, p99 ${ms(r.answered.p99)} ms; ${int(r.shed)} polls shed of ${int(r.requests)}; ` +
          `${r.errors - r.shed} other errors; Withdraw All ${JSON.stringify(r.money?.statuses)}`,
      );
      await sleep(1000);
    }

    // Alone: analytics 90 days (before the test clock moves), then Withdraw All of 1,000 earnings.
    const analytics = servers.map(() => [] as number[]);
    for (let k = 0; k < num('alone') + 3; k++)
      for (const [i, s] of servers.entries()) {
        const t = await timedGet(s.url, adminTokens[i] ?? '', '/api/user/admin/analytics?period=90');
        if (k >= 3) analytics[i]?.push(t);
      }
    const runs = num('withdraw-all');
    console.log(`Giving ${runs + 1} investors per server 1,000 earnings each ...`);
    const heavy: string[][] = [];
    for (const [i, s] of servers.entries()) {
      // Different investors for each server when they share a database; the newest seeded ones.
      const candidates = Array.from({ length: 4 * (runs + 1) }, (_, j) => seedEmail(seeded - i * 4 * (runs + 1) - j));
      heavy.push(await earnThousand(s.url, candidates, runs + 1));
    }
    await sql(pgs.admin, 'CHECKPOINT');
    const wa = servers.map(() => [] as number[]);
    for (let k = 0; k <= runs; k++)
      for (const [i, s] of servers.entries()) {
        const t = await withdrawAll(s.url, heavy[i]?.[k] ?? '');
        if (k > 0) wa[i]?.push(t);
      }
    // Alone: the statement of those weeks (2,000 movements: the earnings and their withdrawals), JSON and PDF.
    const statements = { json: servers.map(() => [] as number[]), pdf: servers.map(() => [] as number[]) };
    const { from, to } = earnedPeriod();
    for (let k = 0; k <= runs; k++)
      for (const [i, s] of servers.entries())
        for (const format of ['json', 'pdf'] as const) {
          const t = await timedGet(
            s.url,
            heavy[i]?.[k] ?? '',
            `/api/user/statement?from=${from}&to=${to}&format=${format}`,
          );
          if (k > 0) statements[format][i]?.push(t);
        }

    // The table.
    const best = [...searches.values()].map((x) => x.lo);
    const col = (f: (i: number) => string) => servers.map((_, i) => f(i));
    const ratio = (f: (i: number) => number) => {
      if (servers.length < 2) return [];
      const r = f(0) / f(1);
      return [Number.isFinite(r) ? r.toFixed(2) : 'n/a'];
    };
    const row = (name: string, cells: string[], r: string[] = []) => `| ${[name, ...cells, ...r].join(' | ')} |`;
    const names = new Set(best.flatMap((b) => b?.endpoints.map((e) => e.name) ?? []));
    const endpoint = (i: number, name: string) => best[i]?.endpoints.find((e) => e.name === name);
    const lines = [
      `Harvest Farm bench, ${started.toISOString().slice(0, 16)} UTC: ${int(seeded)} seeded users, PostgreSQL ${pgVersion?.v};`,
      `${os.availableParallelism()} cores (${os.cpus()[0]?.model.trim()}), ${(os.totalmem() / 1024 ** 3).toFixed(0)} GB, Node ${process.version};` +
        ` load average ${loadBefore} before, ${loadAverage()} after (1/5/15 min; the machine is shared).`,
      `Steps of ${STEP_S} s after ${WARMUP_S} s of warm-up, ${ADMINS} administrators throughout; a step passes with p99 < ${P99_MS} ms over all its requests and no error.`,
      `Steps: ${servers.map((s) => `${s.label}: ${searches.get(s)?.log.join(', ')}`).join('; ')}.`,
      '',
      row(
        '',
        servers.map((s) => s.label),
        servers.length > 1 ? ['ratio'] : [],
      ),
      `|---|${servers.map(() => '---:|').join('')}${servers.length > 1 ? '---:|' : ''}`,
      row(
        `**Active investors served (p99 < ${P99_MS} ms, no errors)**`,
        col((i) => `**${int(best[i]?.investors ?? 0)}**`),
        ratio((i) => best[i]?.investors ?? NaN),
      ),
      row(
        'Requests/s at that load; p50 / p99 ms',
        col((i) => `${int(best[i]?.rps ?? NaN)}; ${ms(best[i]?.p50 ?? NaN)} / ${ms(best[i]?.p99 ?? NaN)}`),
      ),
      ...[...names].map((name) =>
        row(
          `${name}: p50 / p99 ms (requests)`,
          col((i) => {
            const e = endpoint(i, name);
            return e ? `${ms(e.p50)} / ${ms(e.p99)} (${int(e.count)})` : '-';
          }),
        ),
      ),
      row(
        '**Overload: twice the investors served**, with Withdraw All every 0.5 s',
        col((i) => `**${int(overload[i]?.investors ?? NaN)}**`),
      ),
      row(
        'Answered (2xx): requests/s; p50 / p99 ms',
        col((i) => {
          const a = overload[i]?.answered;
          return a ? `${int(a.requests / STEP_S)}; ${ms(a.p50)} / ${ms(a.p99)}` : '-';
        }),
      ),
      row(
        'Polls shed (503 overloaded): share of requests',
        col((i) => {
          const r = overload[i];
          return r
            ? `${((100 * r.shed) / Math.max(1, r.requests)).toFixed(1)} % (${int(r.shed)} of ${int(r.requests)})`
            : '-';
        }),
      ),
      row(
        'Other failures (no answer in 10 s, other status)',
        col((i) => int((overload[i]?.errors ?? NaN) - (overload[i]?.shed ?? 0))),
      ),
      row(
        'Withdraw All meanwhile: answers by status; p99 ms',
        col((i) => {
          const m = overload[i]?.money;
          if (!m) return '-';
          const by = Object.entries(m.statuses)
            .map(([status, n]) => `${status}: ${n}`)
            .join(', ');
          return `${by} (${m.statuses['503'] ? `${m.statuses['503']} shed` : 'none shed'}); ${ms(m.p99)}`;
        }),
      ),
      row(
        `Withdraw All of 1,000 earnings, alone: median (max) of ${runs}, ms`,
        col((i) => `${ms(median(wa[i] ?? []))} (${ms(Math.max(...(wa[i] ?? [])))})`),
        ratio((i) => median(wa[i] ?? [])),
      ),
      ...(['json', 'pdf'] as const).map((format) =>
        row(
          `Statement of 2,000 movements (${format.toUpperCase()}), alone: median (max) of ${runs}, ms`,
          col((i) => `${ms(median(statements[format][i] ?? []))} (${ms(Math.max(...(statements[format][i] ?? [])))})`),
          ratio((i) => median(statements[format][i] ?? [])),
        ),
      ),
      row(
        `Analytics 90 days, alone: median (max) of ${num('alone')}, ms`,
        col((i) => `${ms(median(analytics[i] ?? []))} (${ms(Math.max(...(analytics[i] ?? [])))})`),
        ratio((i) => median(analytics[i] ?? [])),
      ),
    ];
    const text = lines.join('\n');
    console.log(`\n${text}\n`);
    if (opt.out) writeFileSync(opt.out, `${text}\n`);
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
