import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cycleEarning, microToText, microToUsdc, rateToScaled } from '@harvest/shared/money';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../../src/db/client.ts';
import { rawRows } from '../../src/db/raw.ts';
import { inTransaction } from '../../src/db/tx.ts';
import { checkLedger } from '../../src/ledger/check.ts';
import { insertUserWithAccounts, newInvitationCode } from '../../src/modules/users/users.service.ts';
import { halfDone, ledgerTotals, MoneyModel, Rng, seedFromEnv } from '../simulation/model.ts';
import { freePort } from '../net.ts';
import { Cluster, ServerProcess } from '../support/processes.ts';

/**
 * Crash test (docs/SECURITY.md, "Crash and simulation runs"): the real server as a child process on a throwaway PostgreSQL cluster,
 * under a money-moving workload from several concurrent clients. Every request carries an
 * Idempotency-Key and is retried with the same key on network errors, 5xx and 409
 * "still being processed" until it gets a final answer. The server is killed with SIGKILL at
 * random points and PostgreSQL is crash-stopped (`pg_ctl stop -m immediate`) mid-load; both
 * come back and the clients carry on. After every round: the ledger check is empty, nothing
 * is half-done, no key is left running past its lease, and each user's five accounts equal
 * what that client's acknowledged operations imply.
 *
 * Slow, so it runs only with CRASH_TESTS=1 (`npm run test:crash`). CRASH_SEED replays the
 * workload's choices (the crash timing is real time and differs between runs).
 */
/** When the people these tests create signed up: a fixed day, no app clock here. */
const SIGNED_UP = new Date('2026-01-01T00:00:00Z');
const RUN = process.env.CRASH_TESTS === '1';
const SEED = seedFromEnv('CRASH_SEED');
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 5);
const CLIENTS = Number(process.env.CRASH_CLIENTS ?? 4);
const USERS_PER_CLIENT = 3;
const OPS_PER_ROUND = Number(process.env.CRASH_OPS ?? 24);
const LEASE_MS = 1500;
const ADMIN = { email: 'crash-admin@harvest.local', password: 'crash-admin-password' };
const FIRST_DAY = Date.parse('2030-01-07T09:00:00.000Z'); // a Monday

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Round r runs on the r-th weekday after FIRST_DAY, so cycles started in one round complete in the next. */
function roundDay(r: number): number {
  let d = FIRST_DAY;
  for (let n = 0; n < r;) {
    d += 24 * 3600_000;
    const wd = new Date(d).getUTCDay();
    if (wd !== 0 && wd !== 6) n++;
  }
  return d;
}

interface Answer {
  status: number;
  data: any;
  replayed: boolean;
}

describe.runIf(RUN)('crash: kill -9 and PostgreSQL immediate stop under a money workload', () => {
  let cluster: Cluster | undefined;
  let server: ServerProcess | undefined;
  let database: Database | undefined;
  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    await database?.close().catch(() => undefined);
    cluster?.destroy();
  });

  it(`keeps the books through crashes (CRASH_SEED=${SEED})`, { timeout: 30 * 60_000 }, async () => {
    console.log(
      `[crash] seed=${SEED} rounds=${ROUNDS} clients=${CLIENTS} users=${CLIENTS * USERS_PER_CLIENT} ops/round/client=${OPS_PER_ROUND}; replay with CRASH_SEED=${SEED}`,
    );
    const rng = new Rng(SEED);
    const pgPort = Number(process.env.CRASH_PG_PORT ?? (await freePort()));
    cluster = new Cluster(pgPort);
    cluster.start();
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE harvest_crash');
    await admin.end();
    const dbUrl = cluster.url.replace(/\/postgres$/, '/harvest_crash');

    const srv = new ServerProcess(await freePort(), {
      NODE_ENV: 'test',
      DATABASE_URL: dbUrl,
      DATABASE_POOL_SIZE: '10',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'hf-crash-data-')),
      TEST_CLOCK: '1',
      RATE_LIMITS: 'off',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_REQUIRE_2FA: '0',
      JWT_SECRET: 'crash-secret-crash-secret-crash-secret-0123',
      LOG_LEVEL: 'warn',
      IDEMPOTENCY_LEASE_MS: String(LEASE_MS),
      DEPOSIT_ADDRESS: '0x1111111111111111111111111111111111111111',
      SMTP_URL: '',
    });
    server = srv;

    // ------------------------------------------------------------ clock and gate
    let round = 0;
    let roundStartedAt = Date.now();
    const clockNow = () => new Date(roundDay(round) + (Date.now() - roundStartedAt));
    let openGate: () => void = () => undefined;
    let gate: Promise<void> = Promise.resolve();
    const closeGate = () => {
      gate = new Promise((r) => (openGate = r));
    };
    async function setClock(): Promise<void> {
      const res = await fetch(`${srv.baseUrl}/api/__test__/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ now: clockNow().toISOString() }),
      });
      if (res.status !== 200) throw new Error(`clock: ${res.status} ${await res.text()}`);
    }
    /** (Re)starts the server and sets its clock before any client gets through. */
    async function bringUp(): Promise<void> {
      await srv.start();
      await setClock();
      openGate();
    }

    const stats = {
      requests: 0,
      retries: 0,
      networkErrors: 0,
      status5xx: 0,
      inProgress409: 0,
      kills: 0,
      pgStops: 0,
      replays: 0,
      acked: 0,
      refused: 0,
      hashTakenOnRetry: 0,
    };
    async function send(
      method: 'GET' | 'POST',
      url: string,
      opts: { token?: string; body?: unknown; key?: string } = {},
    ): Promise<Answer> {
      for (let attempt = 0; ; attempt++) {
        if (attempt > 0) {
          stats.retries++;
          await sleep(50 + Math.floor(Math.random() * 200));
        }
        if (attempt > 2000) throw new Error(`${method} ${url}: no final answer after ${attempt} attempts`);
        await gate;
        let res: Response;
        let text: string;
        try {
          stats.requests++;
          res = await fetch(`${srv.baseUrl}${url}`, {
            method,
            headers: {
              ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
              ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
              ...(opts.key ? { 'idempotency-key': opts.key } : {}),
            },
            body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
            signal: AbortSignal.timeout(60_000),
          });
          text = await res.text();
        } catch {
          stats.networkErrors++;
          continue;
        }
        const data = text ? JSON.parse(text) : null;
        if (res.status >= 500) {
          stats.status5xx++;
          continue;
        }
        if (res.status === 409 && /Idempotency-Key/.test(String(data?.error))) {
          stats.inProgress409++;
          continue;
        }
        if (res.status === 401) throw new Error(`${method} ${url}: 401 ${text}`);
        const replayed = res.headers.get('idempotent-replayed') === 'true';
        if (replayed) stats.replays++;
        if (opts.key) {
          if (res.status === 200) stats.acked++;
          else stats.refused++;
        }
        return { status: res.status, data, replayed };
      }
    }

    // ------------------------------------------------------------ users
    await bringUp();
    database = openPostgres(dbUrl, 4);
    const db = database.db;
    const model = new MoneyModel();
    interface Client {
      n: number;
      users: { id: string; email: string; token: string; withdrawalPassword: string; wallet: string }[];
    }
    const clients: Client[] = [];
    for (let c = 0; c < CLIENTS; c++) {
      const users: Client['users'] = [];
      let referrer: string | null = null;
      for (let i = 0; i < USERS_PER_CLIENT; i++) {
        const email = `crash-${SEED}-${c}-${i}@example.com`;
        const u = await inTransaction(db, (tx) =>
          insertUserWithAccounts(tx, {
            email,
            firstName: 'Crash',
            lastName: `Client${c}`,
            password: 'password-1',
            withdrawalPassword: 'withdraw-1',
            referrerId: referrer,
            invitationCode: newInvitationCode(),
            createdAt: SIGNED_UP,
          }),
        );
        model.add(u.id, referrer);
        users.push({
          id: u.id,
          email,
          token: '',
          withdrawalPassword: 'withdraw-1',
          wallet: `0x${u.id.replace(/-/g, '').slice(0, 32)}00000000`,
        });
        referrer = u.id;
      }
      clients.push({ n: c, users });
    }
    const tiers = (
      await rawRows<{ amount: bigint }>(db, sql`SELECT amount FROM tiers WHERE active ORDER BY amount`)
    ).map((r) => r.amount);
    expect(tiers.length).toBeGreaterThan(0);
    let adminToken = '';
    async function login(): Promise<void> {
      const a = await send('POST', '/api/login', { body: ADMIN });
      if (a.status !== 200) throw new Error(`admin login: ${JSON.stringify(a.data)}`);
      adminToken = a.data.token;
      for (const c of clients)
        for (const u of c.users) {
          const r = await send('POST', '/api/login', { body: { email: u.email, password: 'password-1' } });
          if (r.status !== 200) throw new Error(`login ${u.email}: ${JSON.stringify(r.data)}`);
          u.token = r.data.token;
        }
    }

    // ------------------------------------------------------------ one client's operations
    let keySeq = 0;
    const newKey = (c: Client) => `crash-${SEED}-${c.n}-${++keySeq}`;

    async function clientOp(c: Client, crng: Rng): Promise<void> {
      const u = crng.pick(c.users);
      const acc = model.get(u.id).acc;
      const op = crng.weighted<string>([
        [5, 'deposit'],
        [2, 'set-balance'],
        [5, 'invest'],
        [3, 'start'],
        [3, 'complete'],
        [3, 'withdraw'],
        [4, 'decide'],
      ]);
      switch (op) {
        case 'deposit': {
          const amount = BigInt(crng.int(50, 2000)) * 1_000_000n + BigInt(crng.int(0, 999_999));
          const txHash = `0x${crng.hex(64)}`;
          const r = await send('POST', '/api/user/process-deposit', {
            token: u.token,
            body: { txHash, amount: microToUsdc(amount), fromAddress: `0x${crng.hex(40)}` },
            key: newKey(c),
          });
          let id: string | undefined = r.data?.deposit?._id;
          if (r.status === 409 && /already been submitted/.test(String(r.data?.error))) stats.hashTakenOnRetry++;
          else if (r.status !== 200) throw new Error(`deposit: ${r.status} ${JSON.stringify(r.data)}`);
          if (!id) {
            const h = await send('GET', '/api/user/deposit-history', { token: u.token });
            id = h.data.deposits.find((d: { txHash: string }) => d.txHash === txHash)?._id;
          }
          if (!id) throw new Error(`deposit ${txHash} acknowledged but not in the history`);
          if (crng.chance(0.15)) return; // left pending
          // One approval, or two admins' approvals at once: exactly one credits.
          const tries = crng.chance(0.4) ? 2 : 1;
          const rs = await Promise.all(
            Array.from({ length: tries }, () =>
              send('POST', '/api/admin/process-deposit', {
                token: adminToken,
                body: { depositId: id },
                key: newKey(c),
              }),
            ),
          );
          if (rs.filter((x) => x.status === 200).length !== 1 || rs.some((x) => x.status !== 200 && x.status !== 409))
            throw new Error(`approve deposit: ${JSON.stringify(rs)}`);
          model.credit(u.id, amount);
          return;
        }
        case 'set-balance': {
          const target = BigInt(crng.int(0, 3000)) * 1_000_000n + BigInt(crng.int(0, 999_999));
          const r = await send('POST', '/api/admin/update-user-balance', {
            token: adminToken,
            body: { userId: u.id, newBalance: microToText(target), note: 'crash test' },
            key: newKey(c),
          });
          if (r.status !== 200) throw new Error(`update balance: ${r.status} ${JSON.stringify(r.data)}`);
          model.setBalance(u.id, target);
          return;
        }
        case 'invest': {
          const tier = crng.pick(tiers);
          const r = await send('POST', '/api/user/invest', {
            token: u.token,
            body: { amount: microToUsdc(tier) },
            key: newKey(c),
          });
          const expected = acc.balance >= tier ? 200 : 400;
          if (r.status !== expected)
            throw new Error(
              `invest ${tier} with balance ${acc.balance}: expected ${expected}, got ${r.status} ${JSON.stringify(r.data)}`,
            );
          if (r.status === 200) model.invest(u.id, tier);
          return;
        }
        case 'start':
        case 'complete': {
          const d = await send('GET', '/api/user/dashboard', { token: u.token });
          const invs: { _id: string; amount: number; dailyRate: number; earningStarted: boolean }[] =
            d.data.activeInvestments;
          const candidates = invs.filter((i) => i.earningStarted === (op === 'complete'));
          if (candidates.length === 0) return;
          const i = crng.pick(candidates);
          const r = await send('POST', op === 'start' ? '/api/user/start-earning' : '/api/user/complete-cycle', {
            token: u.token,
            body: { investmentId: i._id },
            key: newKey(c),
          });
          if (r.status !== 200 && r.status !== 400 && r.status !== 409)
            throw new Error(`${op}: ${r.status} ${JSON.stringify(r.data)}`);
          if (op === 'complete' && r.status === 200) {
            const rate = rateToScaled(i.dailyRate);
            if (rate === null) throw new Error(`bad rate ${i.dailyRate}`);
            model.earn(u.id, cycleEarning(BigInt(Math.round(i.amount * 1e6)), rate));
          }
          return;
        }
        case 'withdraw': {
          const available = model.available(u.id);
          const r = await send('POST', '/api/withdrawal/request-all', {
            token: u.token,
            body: { walletAddress: u.wallet, withdrawalPassword: u.withdrawalPassword },
            key: newKey(c),
          });
          const expected = available > 0n ? 200 : 400;
          if (r.status !== expected)
            throw new Error(
              `withdraw all with ${available} available: expected ${expected}, got ${r.status} ${JSON.stringify(r.data)}`,
            );
          if (r.status === 200) model.withdrawAll(u.id);
          return;
        }
        default: {
          const l = await send('GET', '/api/withdrawal/my-withdrawals', { token: u.token });
          const pending: { _id: string; amount: number; source: string }[] = l.data.withdrawals.filter(
            (w: { status: string }) => w.status === 'pending',
          );
          if (pending.length === 0) return;
          const w = crng.pick(pending);
          const plan = crng.pick([['approve'], ['reject'], ['approve', 'reject'], ['approve', 'approve']] as const);
          const rs = await Promise.all(
            plan.map((action) =>
              send('POST', `/api/withdrawal/admin/${action}`, {
                token: adminToken,
                body:
                  action === 'approve' ? { withdrawalId: w._id, txHash: `0x${crng.hex(64)}` } : { withdrawalId: w._id },
                key: newKey(c),
              }),
            ),
          );
          const wins = rs.flatMap((x, n) => (x.status === 200 ? [plan[n]] : []));
          if (wins.length !== 1 || rs.some((x) => x.status !== 200 && x.status !== 409))
            throw new Error(`decide ${plan.join('+')}: ${JSON.stringify(rs)}`);
          const amount = BigInt(Math.round(w.amount * 1e6));
          if (wins[0] === 'approve') model.approveWithdrawal(u.id, amount);
          else model.rejectWithdrawal(u.id, amount, w.source);
        }
      }
    }

    // ------------------------------------------------------------ chaos
    async function chaos(kind: 'kill' | 'pg'): Promise<void> {
      if (kind === 'kill') {
        closeGate();
        await srv.kill9();
        stats.kills++;
        await sleep(rng.int(100, 800));
        await bringUp();
      } else {
        cluster?.stopImmediate();
        stats.pgStops++;
        await sleep(rng.int(300, 1500));
        cluster?.start();
        // The server should ride it out; if it did not, restart it.
        if (!srv.alive) {
          closeGate();
          await bringUp();
        }
      }
    }

    async function checkRound(label: string): Promise<void> {
      const violations = await checkLedger(db);
      expect(violations, `${label}: ledger violations`).toEqual([]);
      const broken = await halfDone(db, { runningOlderThan: new Date(clockNow().getTime() - LEASE_MS) });
      expect(broken, `${label}: half-done state`).toEqual([]);
      const diff = await model.diff(db);
      expect(diff, `${label}: model and ledger differ`).toEqual([]);
      const totals = await ledgerTotals(db);
      expect(totals.users + totals.platform, `${label}: money created or lost`).toBe(0n);
    }

    // ------------------------------------------------------------ rounds
    const started = Date.now();
    try {
      for (round = 0; round < ROUNDS; round++) {
        roundStartedAt = Date.now();
        await setClock();
        await login();
        const plan: ('kill' | 'pg')[] =
          round === 0
            ? ['kill']
            : round === 1
              ? ['pg']
              : Array.from({ length: rng.int(1, 2) }, () => (rng.chance(0.6) ? 'kill' : 'pg'));
        let clientsDone = false;
        let opsDone = 0;
        const work = Promise.all(
          clients.map(async (c) => {
            const crng = new Rng(SEED * 31 + round * 1009 + c.n);
            for (let k = 0; k < OPS_PER_ROUND; k++) {
              await clientOp(c, crng);
              opsDone++;
            }
          }),
        ).finally(() => {
          clientsDone = true;
        });
        // Each crash strikes once a random share (10-70%) of the round's operations is done, so it
        // always lands mid-load, however fast the machine is.
        const roundOps = CLIENTS * OPS_PER_ROUND;
        const chaosRun = (async () => {
          for (const [i, kind] of plan.entries()) {
            const at = Math.floor(roundOps * (0.1 + (0.6 * (i + rng.int(0, 100) / 100)) / plan.length));
            while (opsDone < at && !clientsDone) await sleep(5);
            if (clientsDone) throw new Error(`round ${round + 1}: the workload ended before the planned ${kind} crash`);
            await chaos(kind);
          }
        })();
        await Promise.all([work, chaosRun]);
        await checkRound(`round ${round + 1}`);
        const t = await ledgerTotals(db);
        console.log(
          `[crash] round ${round + 1}/${ROUNDS} (${plan.join(', ')}): books balance; users hold ${microToText(t.users)} USDC; kills=${stats.kills} pgStops=${stats.pgStops} requests=${stats.requests} retries=${stats.retries}`,
        );
      }
    } catch (err) {
      console.log(
        `[crash] FAILED with seed=${SEED} in round ${round + 1}; server log tail:\n${srv.log().slice(-4000)}`,
      );
      throw err;
    }

    const [running] = await rawRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM idempotency_keys WHERE status = 'running'`,
    );
    const [counts] = await rawRows<Record<string, number>>(
      db,
      sql`SELECT (SELECT count(*)::int FROM deposits WHERE status = 'confirmed') AS deposits_confirmed,
                 (SELECT count(*)::int FROM deposits WHERE status = 'pending') AS deposits_pending,
                 (SELECT count(*)::int FROM investments) AS investments,
                 (SELECT count(*)::int FROM cycle_earnings) AS cycles,
                 (SELECT count(*)::int FROM withdrawals WHERE status = 'approved') AS withdrawals_approved,
                 (SELECT count(*)::int FROM withdrawals WHERE status = 'rejected') AS withdrawals_rejected,
                 (SELECT count(*)::int FROM withdrawals WHERE status = 'pending') AS withdrawals_pending,
                 (SELECT count(*)::int FROM idempotency_keys WHERE status = 'committed') AS keys_committed_answer_lost,
                 (SELECT count(*)::int FROM ledger_transactions) AS ledger_transactions`,
    );
    // The run proves something only if the crashes really happened mid-load.
    expect(stats.kills, 'kill -9 of the server').toBeGreaterThan(0);
    expect(stats.pgStops, 'PostgreSQL immediate stops').toBeGreaterThan(0);
    const totals = await ledgerTotals(db);
    const m = model.totals();
    console.log(
      `[crash] seed=${SEED} passed in ${((Date.now() - started) / 1000).toFixed(1)} s: ${ROUNDS} rounds, ${stats.kills} kill -9, ${stats.pgStops} PostgreSQL immediate stops\n` +
        `  requests ${stats.requests}, retries ${stats.retries} (network errors ${stats.networkErrors}, 5xx ${stats.status5xx}, 409 in progress ${stats.inProgress409}), idempotent replays ${stats.replays}, ` +
        `money calls acknowledged ${stats.acked}, refused ${stats.refused}, deposit hash taken on retry ${stats.hashTakenOnRetry}; keys still running ${running?.n ?? 0}\n` +
        `  rows: ${JSON.stringify(counts)}\n` +
        `  model: balance ${microToText(m.balance)}, rewards ${microToText(m.rewards)}, earnings ${microToText(m.earnings)}, invested ${microToText(m.invested)}, pending ${microToText(m.pending_withdrawal)}\n` +
        `  ledger: users ${microToText(totals.users)} USDC, platform ${microToText(totals.platform)} (${Object.entries(
          totals.byPlatform,
        )
          .map(([k, v]) => `${k} ${microToText(v)}`)
          .join(', ')}): created or lost 0 micro-USDC`,
    );
  });
});
