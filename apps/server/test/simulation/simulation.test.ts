import { CYCLE_MS } from '@harvest/shared/constants';
import { cycleEarning, microToDisplay, microToText, microToUsdc, parseUsdc } from '@harvest/shared/money';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRows } from '../../src/db/raw.ts';
import { checkLedger } from '../../src/ledger/check.ts';
import { isWeekday, platformDay } from '../../src/lib/time.ts';
import { seedTiers } from '../../src/modules/tiers/tiers.seed.ts';
import { call, createTestApp, isPostgres, makeUser, type TestApp, type TestUser, sessionToken } from '../helpers.ts';
import { halfDone, ledgerTotals, MoneyModel, Rng, seedFromEnv } from './model.ts';

/**
 * A seeded random workload ("simulation", docs/SECURITY.md): many investors and two admins do
 * thousands of mixed money operations through the API (deposits and approvals, balance
 * updates, invests, cycles with clock moves, Withdraw All, approvals and rejections),
 * including duplicates with the same Idempotency-Key, conflicting pairs and invalid requests.
 * After every batch the ledger check must be empty and no response may be a 5xx; an
 * independent model of every user's accounts, kept from acknowledged answers, must equal
 * the ledger. On PostgreSQL each batch runs concurrently (Promise.all) to hit races.
 *
 *   SIM_SEED=<n> replays a run; SIM_OPS=<n> sets its size (default 1000).
 */
const SEED = seedFromEnv('SIM_SEED');
const OPS = Number(process.env.SIM_OPS ?? 1000);
const INVESTORS = Number(process.env.SIM_USERS ?? 16);
const START = new Date('2030-01-07T09:00:00.000Z'); // a Monday
const DAY_MS = 24 * 3600_000;
const COOLDOWN_MS = 48 * 3600_000;
/** Clock moves never land this close to a cycle end, a cooldown end or midnight. */
const BOUNDARY_MS = 10 * 60_000;

const usdcMicroOf = (v: number): bigint => {
  const m = parseUsdc(v);
  if (m === null) throw new Error(`not an amount: ${v}`);
  return m;
};

interface Inv {
  id: string;
  userId: string;
  amount: bigint;
  rateScaled: bigint;
  running: boolean;
  endTime: number;
  lastDay: string | null;
  cooldownUntil: number;
}
interface PendingDeposit {
  id: string;
  userId: string;
  amount: bigint;
  txHash: string;
}
interface WithdrawalRow {
  id: string;
  user_id: string;
  source: string;
  amount: bigint;
  status: string;
  investment_id: string | null;
}
type Res = Awaited<ReturnType<typeof call>>;
interface Op {
  name: string;
  touched: string[];
  run(): Promise<void>;
}

describe('simulation: seeded random money workload', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(process.env.SIM_LOG ? { LOG_LEVEL: process.env.SIM_LOG } : {});
  });
  afterAll(async () => {
    await t?.close();
  });

  it(
    `keeps the books exactly (SIM_SEED=${SEED}, SIM_OPS=${OPS})`,
    { timeout: Math.max(120_000, OPS * 400) },
    async () => {
      const mode = isPostgres ? 'PostgreSQL, concurrent batches' : 'PGlite, sequential batches';
      console.log(
        `[simulation] seed=${SEED} ops=${OPS} investors=${INVESTORS} (${mode}); replay with SIM_SEED=${SEED}`,
      );
      try {
        await simulate(t);
      } catch (err) {
        console.log(`[simulation] FAILED with seed=${SEED}: replay with SIM_SEED=${SEED} SIM_OPS=${OPS}`);
        if (err instanceof Error) err.message = `[simulation seed=${SEED}] ${err.message}`;
        throw err;
      }
    },
  );
});

async function simulate(t: TestApp): Promise<void> {
  const rng = new Rng(SEED);
  const model = new MoneyModel();
  t.clock.set(START);
  await seedTiers(t.ctx.db, t.clock.now());
  const tiers = (
    await rawRows<{ amount: bigint; daily_rate_scaled: number }>(
      t.ctx.db,
      sql`SELECT amount, daily_rate_scaled FROM tiers WHERE active`,
    )
  ).map((r) => ({ amount: r.amount, rateScaled: BigInt(r.daily_rate_scaled) }));
  expect(tiers.length).toBeGreaterThan(0);

  const admins: TestUser[] = [await makeUser(t, { isAdmin: true }), await makeUser(t, { isAdmin: true })];
  const investors: TestUser[] = [];
  for (let i = 0; i < INVESTORS; i++) {
    const prev = investors.length > 0 && rng.chance(0.7) ? rng.pick(investors).user.id : null;
    const u = await makeUser(t, { referrerId: prev });
    investors.push(u);
    model.add(u.user.id, prev);
  }
  const tokens = new Map<string, string>();
  const resign = async () => {
    for (const u of [...admins, ...investors])
      tokens.set(u.user.id, await sessionToken(t, u.user.id, u.user.tokenVersion));
  };
  await resign();
  const tok = (u: TestUser) => tokens.get(u.user.id) ?? '';
  const byId = new Map(investors.map((u) => [u.user.id, u]));
  const inv = (id: string) => {
    const u = byId.get(id);
    if (!u) throw new Error(`no investor ${id}`);
    return u;
  };
  const wallet = (id: string) => `0x${id.replace(/-/g, '').slice(0, 32)}00000000`;

  const pendingDeposits: PendingDeposit[] = [];
  const confirmedDeposits: PendingDeposit[] = [];
  const investments: Inv[] = [];
  const decided: string[] = [];
  const stats = {
    requests: 0,
    batches: 0,
    ops: 0,
    byOp: {} as Record<string, number>,
    byStatus: {} as Record<string, number>,
    replays: 0,
  };
  let keySeq = 0;
  const newKey = () => `sim-${SEED}-${++keySeq}`;

  async function req(
    method: 'GET' | 'POST',
    url: string,
    opts: { token: string; body?: unknown; key?: string },
  ): Promise<Res> {
    const res = await call(t, method, url, {
      token: opts.token,
      body: opts.body,
      headers: opts.key ? { 'idempotency-key': opts.key } : {},
    });
    stats.requests++;
    stats.byStatus[res.statusCode] = (stats.byStatus[res.statusCode] ?? 0) + 1;
    if (res.headers['idempotent-replayed']) stats.replays++;
    if (res.statusCode >= 500)
      throw new Error(`${method} ${url} ${JSON.stringify(opts.body)} answered ${res.statusCode}: ${res.body}`);
    return res;
  }
  /** Runs requests of one operation together: concurrently on PostgreSQL, in order on PGlite. */
  async function together(fns: (() => Promise<Res>)[]): Promise<Res[]> {
    if (isPostgres) return Promise.all(fns.map((f) => f()));
    const out: Res[] = [];
    for (const f of fns) out.push(await f());
    return out;
  }
  const ok = (rs: Res[]) => rs.filter((r) => r.statusCode === 200);
  const fail = (what: string, rs: Res[]) =>
    new Error(`${what}: ${rs.map((r) => `${r.statusCode} ${r.body}`).join(' | ')}`);
  const expectStatuses = (what: string, rs: Res[], allowed: number[]) => {
    if (rs.some((r) => !allowed.includes(r.statusCode))) throw fail(`${what} expected ${allowed.join('/')}`, rs);
  };
  const now = () => t.clock.now();
  const randomAmount = (maxUsdc: number) =>
    BigInt(rng.int(1, maxUsdc)) * 1_000_000n + (rng.chance(0.5) ? BigInt(rng.int(0, 999_999)) : 0n);
  const amountJson = (m: bigint) => (rng.chance(0.5) ? microToUsdc(m) : microToText(m));

  // ---------------------------------------------------------------- operations

  const deposit = (u: TestUser): Op => ({
    name: 'deposit',
    touched: [],
    async run() {
      const d = { txHash: `0x${rng.hex(64)}`, amount: randomAmount(3000), fromAddress: `0x${rng.hex(40)}` };
      const body = { txHash: d.txHash, amount: amountJson(d.amount), fromAddress: d.fromAddress };
      const key = newKey();
      const variant = rng.int(0, 9);
      const first = await req('POST', '/api/user/process-deposit', { token: tok(u), body, key });
      if (first.statusCode !== 200) throw fail('deposit', [first]);
      const id: string = first.data.deposit._id;
      if (variant === 0) {
        const again = await req('POST', '/api/user/process-deposit', { token: tok(u), body, key });
        if (again.statusCode !== 200 || again.data.deposit._id !== id || !again.headers['idempotent-replayed'])
          throw fail('deposit replay', [first, again]);
      } else if (variant === 1) {
        const other = await req('POST', '/api/user/process-deposit', {
          token: tok(u),
          body: { ...body, txHash: `0x${rng.hex(64)}` },
          key,
        });
        if (other.statusCode !== 422) throw fail('same key, other body', [other]);
      } else if (variant === 2) {
        const thief = rng.pick(investors);
        const dup = await req('POST', '/api/user/process-deposit', { token: tok(thief), body, key: newKey() });
        if (dup.statusCode !== 409) throw fail('same hash twice', [dup]);
      }
      pendingDeposits.push({ id, userId: u.user.id, amount: d.amount, txHash: d.txHash });
    },
  });

  const approveDeposit = (d: PendingDeposit): Op => ({
    name: 'approve-deposit',
    touched: [d.userId],
    async run() {
      pendingDeposits.splice(pendingDeposits.indexOf(d), 1);
      const variant = rng.int(0, 3);
      const body = { depositId: d.id };
      const key = newKey();
      const calls =
        variant === 0
          ? [() => req('POST', '/api/admin/process-deposit', { token: tok(admins[0]!), body, key })]
          : variant === 1
            ? [
                () => req('POST', '/api/admin/process-deposit', { token: tok(admins[0]!), body, key: newKey() }),
                () => req('POST', '/api/admin/process-deposit', { token: tok(admins[1]!), body, key: newKey() }),
              ]
            : variant === 2
              ? [
                  () => req('POST', '/api/admin/process-deposit', { token: tok(admins[0]!), body, key }),
                  () => req('POST', '/api/admin/process-deposit', { token: tok(admins[0]!), body, key }),
                ]
              : [() => req('POST', '/api/admin/process-deposit', { token: tok(admins[1]!), body })];
      const rs = await together(calls);
      expectStatuses('approve deposit', rs, [200, 409]);
      const fresh = ok(rs).filter((r) => !r.headers['idempotent-replayed']);
      if (fresh.length !== 1) throw fail('approve deposit: exactly one approval credits', rs);
      model.credit(d.userId, d.amount);
      confirmedDeposits.push(d);
    },
  });

  const reapproveDeposit = (d: PendingDeposit): Op => ({
    name: 'reapprove-deposit',
    touched: [d.userId],
    async run() {
      const r = await req('POST', '/api/admin/process-deposit', {
        token: tok(rng.pick(admins)),
        body: { depositId: d.id },
        key: newKey(),
      });
      if (r.statusCode !== 409) throw fail('approve a confirmed deposit', [r]);
    },
  });

  const updateBalance = (u: TestUser): Op => ({
    name: 'update-balance',
    touched: [u.user.id],
    async run() {
      if (rng.chance(0.15)) {
        const r = await req('POST', '/api/admin/update-user-balance', {
          token: tok(rng.pick(admins)),
          body: { userId: u.user.id, newBalance: rng.pick([-1, 'abc', 1e-7, '1e3']) },
          key: newKey(),
        });
        if (r.statusCode !== 400) throw fail('invalid balance update', [r]);
        return;
      }
      const target = rng.chance(0.1) ? 0n : randomAmount(6000);
      const r = await req('POST', '/api/admin/update-user-balance', {
        token: tok(rng.pick(admins)),
        body: { userId: u.user.id, newBalance: amountJson(target), note: 'sim' },
        key: newKey(),
      });
      if (r.statusCode !== 200) throw fail('update balance', [r]);
      model.setBalance(u.user.id, target);
    },
  });

  const invest = (u: TestUser): Op => ({
    name: 'invest',
    touched: [u.user.id, ...model.chain(u.user.id)],
    async run() {
      if (rng.chance(0.1)) {
        const r = await req('POST', '/api/user/invest', {
          token: tok(u),
          body: { amount: rng.pick([-50, 0, 51, 'x', '1e309', Number.POSITIVE_INFINITY]) },
          key: newKey(),
        });
        if (r.statusCode !== 400) throw fail('invest a non-tier amount', [r]);
        return;
      }
      const tier = rng.pick(tiers);
      const count = rng.chance(0.3) ? 2 : 1;
      const weekday = isWeekday(now(), 'UTC');
      const balance = model.get(u.user.id).acc.balance;
      const expected = weekday ? Math.min(count, Number(balance / tier.amount)) : 0;
      const rs = await together(
        Array.from(
          { length: count },
          () => () =>
            req('POST', '/api/user/invest', {
              token: tok(u),
              body: { amount: microToUsdc(tier.amount) },
              key: newKey(),
            }),
        ),
      );
      expectStatuses('invest', rs, [200, 400]);
      if (ok(rs).length !== expected)
        throw fail(`invest: expected ${expected} of ${count} to succeed (balance ${balance}, weekday ${weekday})`, rs);
      for (const r of ok(rs)) {
        model.invest(u.user.id, tier.amount);
        investments.push({
          id: r.data.investment._id,
          userId: u.user.id,
          amount: tier.amount,
          rateScaled: tier.rateScaled,
          running: false,
          endTime: 0,
          lastDay: null,
          cooldownUntil: 0,
        });
      }
    },
  });

  const start = (i: Inv): Op => ({
    name: 'start-earning',
    touched: [i.userId],
    async run() {
      const at = now();
      const day = platformDay(at, 'UTC');
      const predicted = i.running
        ? 409
        : !isWeekday(at, 'UTC')
          ? 400
          : at.getTime() < i.cooldownUntil
            ? 400
            : i.lastDay === day
              ? 409
              : 200;
      const count = rng.chance(0.3) ? 2 : 1;
      const u = inv(i.userId);
      const rs = await together(
        Array.from(
          { length: count },
          () => () =>
            req('POST', '/api/user/start-earning', { token: tok(u), body: { investmentId: i.id }, key: newKey() }),
        ),
      );
      const wins = ok(rs).length;
      if (predicted === 200) {
        if (wins !== 1 || rs.some((r) => r.statusCode !== 200 && r.statusCode !== 409))
          throw fail('start: exactly one starts', rs);
        i.running = true;
        i.endTime = now().getTime() + CYCLE_MS;
        i.lastDay = day;
      } else if (rs.some((r) => r.statusCode !== predicted)) throw fail(`start: expected ${predicted}`, rs);
    },
  });

  const complete = (i: Inv): Op => ({
    name: 'complete-cycle',
    touched: [i.userId],
    async run() {
      const at = now();
      const predicted = !i.running ? 409 : at.getTime() < i.endTime ? 400 : !isWeekday(at, 'UTC') ? 400 : 200;
      const count = rng.chance(0.3) ? 2 : 1;
      const u = inv(i.userId);
      const rs = await together(
        Array.from(
          { length: count },
          () => () =>
            req('POST', '/api/user/complete-cycle', { token: tok(u), body: { investmentId: i.id }, key: newKey() }),
        ),
      );
      if (predicted === 200) {
        if (ok(rs).length !== 1 || rs.some((r) => r.statusCode !== 200 && r.statusCode !== 409))
          throw fail('complete: exactly one completes', rs);
        i.running = false;
        model.earn(i.userId, cycleEarning(i.amount, i.rateScaled));
      } else if (rs.some((r) => r.statusCode !== predicted)) throw fail(`complete: expected ${predicted}`, rs);
    },
  });

  const withdrawAll = (u: TestUser): Op => ({
    name: 'withdraw-all',
    touched: [u.user.id],
    async run() {
      const body = { walletAddress: wallet(u.user.id), withdrawalPassword: u.withdrawalPassword };
      const variant = rng.int(0, 9);
      if (variant === 0) {
        const r = await req('POST', '/api/withdrawal/request-all', {
          token: tok(u),
          body: { ...body, withdrawalPassword: 'wrong-password' },
          key: newKey(),
        });
        if (r.statusCode !== 400) throw fail('withdraw with a wrong password', [r]);
        return;
      }
      if (variant === 1) {
        const r = await req('POST', '/api/withdrawal/request-all', {
          token: tok(u),
          body: { ...body, walletAddress: '0x1234' },
          key: newKey(),
        });
        if (r.statusCode !== 400) throw fail('withdraw to a bad wallet', [r]);
        return;
      }
      const available = model.available(u.user.id);
      const key = newKey();
      const calls =
        variant <= 4
          ? [() => req('POST', '/api/withdrawal/request-all', { token: tok(u), body, key })]
          : variant <= 7
            ? [
                () => req('POST', '/api/withdrawal/request-all', { token: tok(u), body, key: newKey() }),
                () => req('POST', '/api/withdrawal/request-all', { token: tok(u), body, key: newKey() }),
              ]
            : [
                () => req('POST', '/api/withdrawal/request-all', { token: tok(u), body, key }),
                () => req('POST', '/api/withdrawal/request-all', { token: tok(u), body, key }),
              ];
      const rs = await together(calls);
      const fresh = ok(rs).filter((r) => !r.headers['idempotent-replayed']);
      if (available > 0n) {
        expectStatuses('withdraw all', rs, [200, 400, 409]);
        if (fresh.length !== 1) throw fail(`withdraw all: exactly one request holds ${available}`, rs);
        const moved = model.withdrawAll(u.user.id);
        if (!String(fresh[0]?.data.message).includes(`${microToDisplay(moved)}\u00a0USDC gross`))
          throw fail(`withdraw all should hold ${microToText(moved)}`, fresh);
      } else {
        expectStatuses('withdraw all with nothing available', rs, [400, 409]);
        if (!rs.some((r) => r.statusCode === 400)) throw fail('withdraw all with nothing available', rs);
      }
    },
  });

  const decide = (w: WithdrawalRow): Op => ({
    name: 'decide-withdrawal',
    touched: [w.user_id],
    async run() {
      const amount = w.amount;
      const approveBody = () => ({ withdrawalId: w.id, txHash: `0x${rng.hex(64)}`, notes: 'sim payout' });
      const rejectBody = { withdrawalId: w.id, notes: 'sim reject' };
      const variant = rng.int(0, 5);
      const plan: ('approve' | 'reject')[] = [
        ['approve'],
        ['reject'],
        ['approve', 'reject'],
        ['reject', 'approve'],
        ['approve', 'approve'],
        ['reject', 'reject'],
      ][variant] as ('approve' | 'reject')[];
      const rs = await together(
        plan.map(
          (action, n) => () =>
            req('POST', `/api/withdrawal/admin/${action}`, {
              token: tok(admins[n % 2]!),
              body: action === 'approve' ? approveBody() : rejectBody,
              key: newKey(),
            }),
        ),
      );
      expectStatuses('decide withdrawal', rs, [200, 409]);
      const wins = rs.flatMap((r, n) => (r.statusCode === 200 ? [plan[n]] : []));
      if (wins.length !== 1) throw fail(`decide withdrawal (${plan.join('+')}): exactly one decision`, rs);
      if (wins[0] === 'approve') {
        model.approveWithdrawal(w.user_id, amount);
        if (w.source === 'earning' && w.investment_id) {
          const i = investments.find((x) => x.id === w.investment_id);
          const [row] = await rawRows<{ at: Date }>(
            t.ctx.db,
            sql`SELECT next_cycle_available_at AS at FROM investments WHERE id = ${w.investment_id}::uuid`,
          );
          if (i && row) i.cooldownUntil = row.at.getTime();
          if (i && row && Math.abs(i.cooldownUntil - (now().getTime() + COOLDOWN_MS)) > 60_000)
            throw new Error(`cooldown of ${i.id} is not 48 h after approval`);
        }
      } else model.rejectWithdrawal(w.user_id, amount, w.source);
      decided.push(w.id);
    },
  });

  const redecide = (id: string, userId: string): Op => ({
    name: 'redecide-withdrawal',
    touched: [userId],
    async run() {
      const action = rng.chance(0.5) ? 'approve' : 'reject';
      const r = await req('POST', `/api/withdrawal/admin/${action}`, {
        token: tok(rng.pick(admins)),
        body: action === 'approve' ? { withdrawalId: id, txHash: `0x${rng.hex(64)}` } : { withdrawalId: id },
        key: newKey(),
      });
      if (r.statusCode !== 409) throw fail(`${action} a decided withdrawal`, [r]);
    },
  });

  const invalid = (u: TestUser): Op => ({
    name: 'invalid',
    touched: [],
    async run() {
      const other = {
        id: rng.pick(
          investments
            .filter((i) => i.userId !== u.user.id)
            .map((i) => i.id)
            .concat(['00000000-0000-4000-8000-000000000000']),
        ),
      };
      const cases: [string, string, unknown, number[], Record<string, string>?][] = [
        [
          '/api/user/process-deposit',
          tok(u),
          { txHash: `0x${rng.hex(64)}`, amount: -1, fromAddress: `0x${rng.hex(40)}` },
          [400],
        ],
        [
          '/api/user/process-deposit',
          tok(u),
          { txHash: `0x${rng.hex(63)}`, amount: 5, fromAddress: `0x${rng.hex(40)}` },
          [400],
        ],
        [
          '/api/user/process-deposit',
          tok(u),
          { txHash: `0x${rng.hex(64)}`, amount: '1e-7', fromAddress: `0x${rng.hex(40)}`, status: 'confirmed' },
          [400],
        ],
        ['/api/user/invest', tok(u), { amount: 50, isAdmin: true }, [400]],
        [
          '/api/withdrawal/request-all',
          tok(u),
          { walletAddress: wallet(u.user.id), withdrawalPassword: u.withdrawalPassword, fee: 0 },
          [400],
        ],
        ['/api/withdrawal/admin/approve', tok(u), { withdrawalId: other.id, txHash: `0x${rng.hex(64)}` }, [403]],
        ['/api/admin/update-user-balance', tok(u), { userId: u.user.id, newBalance: 1_000_000 }, [403]],
        [
          '/api/admin/process-deposit',
          tok(u),
          {
            depositId: rng.pick(
              pendingDeposits
                .concat(confirmedDeposits)
                .map((d) => d.id)
                .concat(['x']),
            ),
          },
          [403],
        ],
        ['/api/user/start-earning', tok(u), { investmentId: other.id }, [404]],
        ['/api/user/complete-cycle', tok(u), { investmentId: 'not-a-uuid' }, [400, 404]],
        [
          '/api/withdrawal/admin/reject',
          tok(rng.pick(admins)),
          { withdrawalId: '00000000-0000-4000-8000-000000000000' },
          [404],
        ],
        [
          '/api/admin/process-deposit',
          tok(rng.pick(admins)),
          { depositId: '00000000-0000-4000-8000-000000000000' },
          [404],
        ],
        [
          '/api/admin/update-user-balance',
          tok(rng.pick(admins)),
          { userId: u.user.id, newBalance: 1, isAdmin: true },
          [400],
        ],
        ['/api/user/invest', tok(u), { amount: 50 }, [400], { 'idempotency-key': 'bad key with spaces' }],
        ['/api/user/invest', '', { amount: 50 }, [401]],
      ];
      const [url, token, body, allowed, headers] = rng.pick(cases);
      const res = await call(t, 'POST', url, {
        token: token || undefined,
        body,
        headers: headers ?? { 'idempotency-key': newKey() },
      });
      stats.requests++;
      stats.byStatus[res.statusCode] = (stats.byStatus[res.statusCode] ?? 0) + 1;
      if (!allowed.includes(res.statusCode))
        throw fail(`invalid request ${url} ${JSON.stringify(body)} expected ${allowed.join('/')}`, [res]);
    },
  });

  const moveClock = (): Op => ({
    name: 'clock',
    touched: ['*'],
    async run() {
      const boundaries = investments.flatMap((i) => [i.running ? i.endTime : 0, i.cooldownUntil]).filter((x) => x > 0);
      let target = 0;
      for (let tries = 0; tries < 50; tries++) {
        const delta = rng.chance(0.7) ? rng.int(3600_000, 10 * 3600_000) : rng.int(10 * 3600_000, 60 * 3600_000);
        target = now().getTime() + delta;
        const sinceMidnight = target % DAY_MS;
        const nearMidnight = sinceMidnight < BOUNDARY_MS || DAY_MS - sinceMidnight < BOUNDARY_MS;
        if (!nearMidnight && boundaries.every((b) => Math.abs(b - target) > BOUNDARY_MS)) break;
      }
      t.clock.set(new Date(target));
      await resign();
    },
  });

  // ---------------------------------------------------------------- batches

  const pendingWithdrawals = () =>
    rawRows<WithdrawalRow>(
      t.ctx.db,
      sql`SELECT id::text AS id, user_id::text AS user_id, source, amount, status, investment_id::text AS investment_id FROM withdrawals WHERE status = 'pending' ORDER BY requested_at, id`,
    );

  async function buildOp(pending: WithdrawalRow[]): Promise<Op | null> {
    const u = rng.pick(investors);
    const kind = rng.weighted<string>([
      [14, 'deposit'],
      [14, 'approve-deposit'],
      [1, 'reapprove-deposit'],
      [5, 'update-balance'],
      [14, 'invest'],
      [12, 'start'],
      [12, 'complete'],
      [9, 'withdraw-all'],
      [12, 'decide'],
      [1, 'redecide'],
      [6, 'invalid'],
      [4, 'clock'],
    ]);
    switch (kind) {
      case 'deposit':
        return deposit(u);
      case 'approve-deposit':
        return pendingDeposits.length ? approveDeposit(rng.pick(pendingDeposits)) : deposit(u);
      case 'reapprove-deposit':
        return confirmedDeposits.length ? reapproveDeposit(rng.pick(confirmedDeposits)) : null;
      case 'update-balance':
        return updateBalance(u);
      case 'invest':
        return invest(u);
      case 'start':
        return investments.length ? start(rng.pick(investments)) : invest(u);
      case 'complete': {
        const running = investments.filter((i) => i.running);
        return running.length && rng.chance(0.85)
          ? complete(rng.pick(running))
          : investments.length
            ? complete(rng.pick(investments))
            : null;
      }
      case 'withdraw-all':
        return withdrawAll(u);
      case 'decide':
        return pending.length ? decide(rng.pick(pending)) : withdrawAll(u);
      case 'redecide': {
        const id = decided.length ? rng.pick(decided) : null;
        if (!id) return null;
        const [row] = await rawRows<{ user_id: string }>(
          t.ctx.db,
          sql`SELECT user_id::text AS user_id FROM withdrawals WHERE id = ${id}::uuid`,
        );
        return row ? redecide(id, row.user_id) : null;
      }
      case 'invalid':
        return invalid(u);
      default:
        return moveClock();
    }
  }

  const started = Date.now();
  let checkMs = 0;
  const maxBatch = isPostgres ? 8 : 4;
  while (stats.ops < OPS) {
    const pending = await pendingWithdrawals();
    const size = rng.int(1, maxBatch);
    const batch: Op[] = [];
    const used = new Set<string>();
    for (let n = 0; n < size * 2 && batch.length < size; n++) {
      const op = await buildOp(pending);
      if (!op) continue;
      if (op.touched.includes('*')) {
        if (batch.length === 0) batch.push(op);
        break;
      }
      if (op.touched.some((id) => used.has(id))) continue;
      op.touched.forEach((id) => used.add(id));
      // A withdrawal picked by one op must not be picked again in the same batch.
      if (op.name === 'decide-withdrawal')
        pending.splice(0, pending.length, ...pending.filter((w) => !op.touched.includes(w.user_id)));
      batch.push(op);
    }
    if (isPostgres) await Promise.all(batch.map((op) => op.run()));
    else for (const op of batch) await op.run();
    for (const op of batch) stats.byOp[op.name] = (stats.byOp[op.name] ?? 0) + 1;
    stats.ops += batch.length;
    stats.batches++;

    const c0 = Date.now();
    const violations = await checkLedger(t.ctx.db);
    checkMs += Date.now() - c0;
    if (violations.length)
      throw new Error(
        `ledger check after batch ${stats.batches} (${batch.map((o) => o.name).join(', ')}): ${JSON.stringify(violations)}`,
      );
    const [running] = await rawRows<{ n: number }>(
      t.ctx.db,
      sql`SELECT count(*)::int AS n FROM idempotency_keys WHERE status = 'running'`,
    );
    if (Number(running?.n ?? 0) !== 0) throw new Error(`idempotency keys left running after batch ${stats.batches}`);
    if (stats.batches % 25 === 0) await compare(`batch ${stats.batches}`);
  }
  await compare('the end');
  const statementLines = await compareStatements();

  /**
   * Statements of random investors over random periods against the ledger and the model: the opening and
   * closing balances are the covered accounts' entries before the period's first and after its last day, the lines
   * add up from one to the other, there is one line per counter-entry of every transaction that moved the covered
   * total, and a statement that ends today closes at what the model holds for that investor (all but invested).
   */
  async function compareStatements() {
    const covered = sql`('balance', 'rewards', 'earnings', 'pending_withdrawal')`;
    const sumBefore = async (userId: string, day: string) => {
      const [row] = await rawRows<{ s: string | null }>(
        t.ctx.db,
        sql`SELECT sum(e.amount)::text AS s FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
            JOIN ledger_transactions x ON x.id = e.transaction_id
            WHERE a.user_id = ${userId}::uuid AND a.kind IN ${covered} AND x.created_at < (${day}::timestamp AT TIME ZONE 'UTC')`,
      );
      return BigInt(row?.s ?? 0);
    };
    const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const lastDay = platformDay(now(), 'UTC');
    const firstMs = START.getTime() - DAY_MS;
    let compared = 0;
    for (let i = 0; i < 8; i++) {
      const u = rng.pick(investors);
      // Every other one covers the whole run up to today; none more than a year (STATEMENT_MAX_DAYS).
      const whole = i % 2 === 0;
      const fromMs = whole ? Math.max(firstMs, now().getTime() - 300 * DAY_MS) : rng.int(firstMs, now().getTime());
      const from = dayOf(fromMs);
      const to = whole ? lastDay : dayOf(rng.int(fromMs, Math.min(now().getTime(), fromMs + 300 * DAY_MS)));
      const res = await req('GET', `/api/user/statement?from=${from}&to=${to}`, { token: tok(u) });
      if (res.statusCode !== 200) throw fail(`statement ${from}..${to}`, [res]);
      const s = res.data;
      const next = dayOf(Date.parse(`${to}T00:00:00Z`) + DAY_MS);
      const opening = await sumBefore(u.user.id, from);
      const closing = await sumBefore(u.user.id, next);
      const micro = (v: number) => (v < 0 ? -usdcMicroOf(-v) : usdcMicroOf(v));
      const lines: bigint[] = s.movements.map((m: { amount: number }) => micro(m.amount));
      expect(micro(s.openingBalance), `opening ${from}`).toBe(opening);
      expect(micro(s.closingBalance), `closing ${to}`).toBe(closing);
      expect(opening + lines.reduce((a, b) => a + b, 0n)).toBe(closing);
      const [counted] = await rawRows<{ n: number }>(
        t.ctx.db,
        sql`WITH mine AS (SELECT e.transaction_id, sum(e.amount) AS d FROM ledger_entries e
              JOIN ledger_accounts a ON a.id = e.account_id
              WHERE a.user_id = ${u.user.id}::uuid AND a.kind IN ${covered} GROUP BY 1)
            SELECT count(*)::int AS n FROM mine m JOIN ledger_transactions x ON x.id = m.transaction_id
            JOIN ledger_entries ce ON ce.transaction_id = x.id JOIN ledger_accounts ca ON ca.id = ce.account_id
            WHERE m.d <> 0 AND x.created_at >= (${from}::timestamp AT TIME ZONE 'UTC')
              AND x.created_at < (${next}::timestamp AT TIME ZONE 'UTC')
              AND NOT (ca.user_id IS NOT DISTINCT FROM ${u.user.id}::uuid AND ca.kind IN ${covered})`,
      );
      expect(lines.length).toBe(Number(counted?.n ?? -1));
      compared += lines.length;
      if (to === lastDay) {
        const a = model.get(u.user.id).acc;
        expect(closing).toBe(a.balance + a.rewards + a.earnings + a.pending_withdrawal);
      }
    }
    return compared;
  }

  async function compare(when: string) {
    const diff = await model.diff(t.ctx.db);
    if (diff.length) throw new Error(`model and ledger differ at ${when}:\n${diff.slice(0, 20).join('\n')}`);
    const broken = await halfDone(t.ctx.db, { runningOlderThan: new Date(now().getTime() + 1) });
    if (broken.length) throw new Error(`half-done state at ${when}:\n${broken.join('\n')}`);
  }

  const totals = await ledgerTotals(t.ctx.db);
  const m = model.totals();
  const modelUsers = m.balance + m.rewards + m.earnings + m.invested + m.pending_withdrawal;
  expect(totals.users + totals.platform).toBe(0n);
  expect(totals.users).toBe(modelUsers);
  expect(await checkLedger(t.ctx.db)).toEqual([]);
  const [counts] = await rawRows<Record<string, number>>(
    t.ctx.db,
    sql`SELECT (SELECT count(*)::int FROM deposits WHERE status = 'confirmed') AS deposits_confirmed,
               (SELECT count(*)::int FROM investments) AS investments,
               (SELECT count(*)::int FROM cycle_earnings) AS cycles,
               (SELECT count(*)::int FROM withdrawals WHERE status = 'approved') AS withdrawals_approved,
               (SELECT count(*)::int FROM withdrawals WHERE status = 'rejected') AS withdrawals_rejected,
               (SELECT count(*)::int FROM withdrawals WHERE status = 'pending') AS withdrawals_pending,
               (SELECT count(*)::int FROM ledger_transactions) AS ledger_transactions`,
  );
  console.log(
    `[simulation] seed=${SEED} done in ${((Date.now() - started) / 1000).toFixed(1)} s (ledger checks ${(checkMs / 1000).toFixed(1)} s): ${stats.ops} operations in ${stats.batches} batches, ${stats.requests} requests (${stats.replays} idempotent replays)\n` +
      `  8 statements of random investors and periods agree with the ledger and the model (${statementLines} lines)\n` +
      `  operations: ${JSON.stringify(stats.byOp)}\n  statuses: ${JSON.stringify(stats.byStatus)}\n  rows: ${JSON.stringify(counts)}\n` +
      `  users hold ${microToText(totals.users)} USDC (model ${microToText(modelUsers)}), platform accounts ${microToText(totals.platform)}: created or lost 0 micro-USDC`,
  );
}
