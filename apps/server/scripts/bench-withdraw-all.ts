/**
 * `npm run bench:withdraw-all`: Withdraw All of WA_EARNINGS (1,000) unrequested earnings, alone, on a seeded
 * PostgreSQL database (BENCH_DATABASE_URL; it writes: run it on a copy, `createdb -T seed100k ...`).
 *
 *  1. Statements, in-process (WA_PROFILE rounds, 7): one prepared user asks with a wrong withdrawal password,
 *     so every round writes the same rows and rolls them back (decision 0051: the password is awaited last;
 *     a VACUUM between rounds clears the rolled-back rows).
 *     Each statement's time at the driver, median over the rounds; with WA_EXPLAIN=1 (auto_explain in the
 *     session, log_analyze with triggers) also each statement's execution time in PostgreSQL and its
 *     triggers: foreign-key checks (RI_ConstraintTrigger_*), the rollups, summed over their calls (WA_PLANS_OUT:
 *     the last round's plans as JSON).
 *  2. HTTP, the compiled server (as `npm start`): WA_RUNS (15) other prepared users, one request at a time,
 *     each after a CHECKPOINT (every page it dirties then goes whole to the WAL, as for earnings written long
 *     before), the first a warm-up; median, min and max of the rest.
 *  3. `ledger:check` on the result (WA_CHECK=0 skips it).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openPostgres } from '../src/db/client.ts';
import { rawRows } from '../src/db/raw.ts';
import { checkLedger } from '../src/ledger/check.ts';
import { SettableClock } from '../src/lib/clock.ts';
import { TokenService } from '../src/lib/tokens.ts';
import {
  BENCH_APP_ENV,
  benchDay,
  benchServerEnv,
  envNumber,
  fmt,
  freePort,
  loadAverage,
  machine,
  median,
  serverEntry,
  setServerClock,
  startTs,
  SERVER_READY_PATH,
} from './bench-lib.ts';
import { addEarnings } from './bench-earnings.ts';

const EARNINGS = envNumber('WA_EARNINGS', 1000);
const RUNS = envNumber('WA_RUNS', 15);
const ROUNDS = envNumber('WA_PROFILE', 7);
const EXPLAIN = process.env.WA_EXPLAIN === '1';
const TTL = 24 * 3600;
const WALLET = '0x1111111111111111111111111111111111111111';
const WITHDRAWAL_PASSWORD = 'seed-withdrawal';

// ---- every statement the in-process app sends, with its time at the driver --------------------------
interface Sent {
  text: string;
  /** Sent at (performance.now()) and its time until the answer. */
  at: number;
  ms: number;
}
let sent: Sent[] | null = null;
const noticed = new WeakSet<object>();
const plans: unknown[] = [];
const origQuery = pg.Client.prototype.query;
(pg.Client.prototype as any).query = function (this: pg.Client, ...args: unknown[]) {
  if (!noticed.has(this)) {
    noticed.add(this);
    this.on('notice', (n) => {
      const m = /plan:\n([\s\S]*)$/.exec(n.message ?? '');
      if (m?.[1] && sent) plans.push(JSON.parse(m[1]));
    });
  }
  const first = args[0];
  const text = typeof first === 'string' ? first : ((first as { text?: string })?.text ?? '');
  const log = sent;
  const t0 = performance.now();
  const r = (origQuery as any).apply(this, args);
  if (log && r && typeof r.then === 'function') {
    const entry = { text, at: t0, ms: NaN };
    log.push(entry);
    r.then(
      () => (entry.ms = performance.now() - t0),
      () => (entry.ms = performance.now() - t0),
    );
  }
  return r;
};

const short = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 90);

interface Plan {
  'Query Text'?: string;
  Plan?: { 'Actual Total Time'?: number };
  Triggers?: { 'Trigger Name': string; Relation?: string; Time: number; Calls: number }[];
}

async function main() {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) throw new Error('BENCH_DATABASE_URL: a seeded database it may write to (a copy)');
  console.log(`Machine: ${machine()}; load ${loadAverage()}`);
  const database = openPostgres(url, 2);
  const db = database.db;
  await database.migrate();
  const users = await rawRows<{ id: string; tv: number; inv: string }>(
    db,
    sql`SELECT u.id::text AS id, u.token_version AS tv,
          (SELECT i.id::text FROM investments i WHERE i.user_id = u.id ORDER BY i.created_at LIMIT 1) AS inv
        FROM users u WHERE u.email LIKE '%@seed.harvest' AND NOT u.is_blocked AND NOT u.is_admin
          AND EXISTS (SELECT 1 FROM investments i WHERE i.user_id = u.id)
        ORDER BY random() LIMIT ${RUNS + 2}`,
  );
  if (users.length < RUNS + 2) throw new Error('not enough seeded users with an investment');
  for (const u of users) await addEarnings(db, u.id, u.inv, EARNINGS);
  const [profiled, committed, ...timed] = users;
  if (!profiled || !committed) throw new Error('no user');
  const day = benchDay();
  const clock = new SettableClock();
  clock.set(day);
  const secret = randomBytes(32).toString('hex');
  const tokens = new TokenService(secret, TTL, clock);
  const bearer = async (u: { id: string; tv: number }) => `Bearer ${await tokens.sign({ sub: u.id, tv: u.tv })}`;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'hf-bench-wa-'));
  try {
    // ---- 1. statements ----------------------------------------------------------------------------
    const env = { ...process.env, ...BENCH_APP_ENV, LOG_LEVEL: 'silent' };
    const explainOptions =
      '-c session_preload_libraries=auto_explain -c auto_explain.log_min_duration=0 -c auto_explain.log_analyze=on ' +
      '-c auto_explain.log_triggers=on -c auto_explain.log_format=json -c auto_explain.log_level=notice';
    const appUrl = EXPLAIN
      ? `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(explainOptions)}`
      : url;
    const config = loadConfig({ ...env, DATABASE_URL: appUrl, JWT_TTL_SECONDS: String(TTL) });
    const appDb = openPostgres(appUrl, 2);
    const inproc = await buildApp({ config, database: appDb, secret, clock });
    await inproc.app.ready();
    const auth = await bearer(profiled);
    const rounds: Sent[][] = [];
    const roundPlans: Plan[][] = [];
    for (let i = 0; i < ROUNDS + 1; i++) {
      sent = [];
      plans.length = 0;
      const res = await inproc.app.inject({
        method: 'POST',
        url: '/api/withdrawal/request-all',
        headers: { authorization: auth },
        payload: { walletAddress: WALLET, withdrawalPassword: 'not-the-password' },
      });
      if (res.statusCode !== 400) throw new Error(`profile round: ${res.statusCode} ${res.body}`);
      const done = sent;
      sent = null;
      // The round's rows were rolled back: without a vacuum the next round meets them as dead index entries.
      await db.execute(
        sql`VACUUM withdrawals, cycle_earnings, users, ledger_accounts, ledger_transactions, ledger_entries, mail_outbox, rollups`,
      );
      if (i === 0) continue; // warm-up: plans cached, pages read
      rounds.push(done);
      roundPlans.push([...(plans as Plan[])]);
    }
    // One request that commits (another prepared user): where its time goes, statement by statement.
    sent = [];
    const r0 = performance.now();
    const real = await inproc.app.inject({
      method: 'POST',
      url: '/api/withdrawal/request-all',
      headers: { authorization: await bearer(committed) },
      payload: { walletAddress: WALLET, withdrawalPassword: WITHDRAWAL_PASSWORD },
    });
    const realMs = performance.now() - r0;
    const timeline = sent;
    sent = null;
    if (real.statusCode !== 200) throw new Error(`committed request: ${real.statusCode} ${real.body}`);
    await inproc.app.close();
    const first = rounds[0] ?? [];
    const begin = first.findIndex((s) => /^\s*begin/i.test(s.text));
    const rollback = first.findIndex((s) => /^\s*rollback/i.test(s.text));
    console.log(
      `\nStatements of one Withdraw All (${EARNINGS} earnings), median of ${ROUNDS} rolled-back rounds, at the driver:`,
    );
    first.forEach((s, k) => {
      const ms = median(rounds.map((r) => r[k]?.ms ?? NaN));
      console.log(`  ${String(k + 1).padStart(2)} ${fmt(ms, 2).padStart(7)} ms  ${short(s.text)}`);
    });
    const txMs = rounds.map((r) => r.slice(begin, rollback).reduce((a, s) => a + s.ms, 0));
    console.log(`  transaction's statements (BEGIN .. before ROLLBACK): median ${fmt(median(txMs), 1)} ms`);
    console.log(`\nOne committed request in-process (app.inject), ${fmt(realMs, 1)} ms: statements by start time`);
    for (const s of timeline)
      console.log(`  +${fmt(s.at - r0, 1).padStart(6)} ${fmt(s.ms, 2).padStart(7)} ms  ${short(s.text)}`);
    if (EXPLAIN) {
      console.log(`\nauto_explain (median of ${ROUNDS}): execution time and triggers per statement`);
      type Seen = { exec: number[]; triggers: Map<string, { ms: number[]; calls: number }> };
      const byText = new Map<string, Seen>();
      for (const rp of roundPlans)
        for (const p of rp) {
          const key = short(p['Query Text'] ?? '');
          const e: Seen = byText.get(key) ?? { exec: [], triggers: new Map() };
          e.exec.push(p.Plan?.['Actual Total Time'] ?? NaN);
          for (const t of p.Triggers ?? []) {
            const name = `${t['Trigger Name']} on ${t.Relation ?? '?'}`;
            const tr = e.triggers.get(name) ?? { ms: [], calls: t.Calls };
            tr.ms.push(t.Time);
            e.triggers.set(name, tr);
          }
          byText.set(key, e);
        }
      for (const [text, e] of byText) {
        console.log(`  ${fmt(median(e.exec), 2).padStart(7)} ms  ${text}`);
        for (const [name, t] of e.triggers)
          console.log(`           trigger ${fmt(median(t.ms), 2)} ms, ${t.calls} calls: ${name}`);
      }
    }
    if (EXPLAIN && process.env.WA_PLANS_OUT)
      writeFileSync(process.env.WA_PLANS_OUT, JSON.stringify(roundPlans.at(-1), null, 1));
    await appDb.close().catch(() => undefined);

    // ---- 2. HTTP ----------------------------------------------------------------------------------
    const entry = serverEntry();
    const server = await startTs(
      entry.file,
      benchServerEnv({ url, secret, ttlSeconds: TTL, dataDir: path.join(tmp, 'server') }),
      SERVER_READY_PATH,
      await freePort(),
    );
    const http: number[] = [];
    try {
      await setServerClock(server.url, day);
      for (const u of timed) {
        const t = await bearer(u);
        // As in production, where a user's earnings were written long before: every page the request
        // dirties is its first change since a checkpoint, and PostgreSQL writes it whole to the WAL.
        await db.execute(sql`CHECKPOINT`);
        const t0 = performance.now();
        const res = await fetch(`${server.url}/api/withdrawal/request-all`, {
          method: 'POST',
          headers: { authorization: t, 'content-type': 'application/json' },
          body: JSON.stringify({ walletAddress: WALLET, withdrawalPassword: WITHDRAWAL_PASSWORD }),
        });
        const body = await res.text();
        const ms = performance.now() - t0;
        if (!res.ok) throw new Error(`request-all -> ${res.status} ${body}`);
        http.push(ms);
      }
    } finally {
      await server.stop();
    }
    const kept = http.slice(1);
    console.log(
      `\nHTTP (${entry.compiled ? 'compiled server' : 'tsx'}), ${kept.length} users x ${EARNINGS} earnings, one at a time, each after a CHECKPOINT: ` +
        `median ${fmt(median(kept), 1)} ms, min ${fmt(Math.min(...kept), 1)}, max ${fmt(Math.max(...kept), 1)} ` +
        `(all: ${kept.map((x) => x.toFixed(1)).join(' ')}; warm-up ${fmt(http[0] ?? NaN, 1)})`,
    );
    console.log(`Load after: ${loadAverage()}`);

    // ---- 3. the books -----------------------------------------------------------------------------
    if (process.env.WA_CHECK !== '0') {
      const violations = await checkLedger(db);
      console.log(`ledger:check: ${violations.length} violation(s)`);
      for (const v of violations.slice(0, 10)) console.log(`  ${v.rule}: ${v.detail}`);
    }
  } finally {
    await database.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
