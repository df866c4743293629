/**
 * The load model (bench/README.md): simulated investors polling as the web app's screens do, and administrators
 * paging the back office, against one server for one step.
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_ANALYTICS_PERIOD, POLL_DEPOSITS_MS, POLL_INVESTMENTS_MS } from '@harvest/shared/constants';
import { pollBackoffMs } from '@harvest/shared/poll-backoff';
import { call, type Answer } from './http.ts';

/** Signed-in investors (tokens), handed out one per session in turn. */
export interface Pool {
  tokens: string[];
  next: number;
}

interface Poll {
  /** Requests fired together, as the tab's queries refetch together. */
  paths: string[];
  everyMs: number;
}

const t = () => `t=${Date.now()}`;
/** The Investments tab: the dashboard and the withdrawals every 2 s. */
const INVESTMENTS: Poll = {
  paths: ['/api/user/dashboard', `/api/withdrawal/my-withdrawals?${t()}`],
  everyMs: POLL_INVESTMENTS_MS,
};
/** The Deposit tab: the dashboard, the deposit history and the failed deposits every 30 s. */
const DEPOSIT: Poll = {
  paths: ['/api/user/dashboard', '/api/user/deposit-history', '/api/withdrawal/failed-deposits'],
  everyMs: POLL_DEPOSITS_MS,
};
/** Share of sessions spent on the Deposit tab; the others watch their cycles on the Investments tab. */
const DEPOSIT_SHARE = 0.25;
/** A session (open the app, sit on one tab) lasts 30-90 s; then the slot opens the app as the next investor. */
const SESSION_MS = [30_000, 90_000] as const;
/** An administrator looks at each page this long before the next click. */
const THINK_MS = 1_000;
/** Page sizes of the back-office panels (apps/web/src/features/admin-*). */
const USERS_PAGE = 20;
const DEPOSITS_PAGE = 50;
const WITHDRAWALS_PAGE = 25;

export interface EndpointStats {
  name: string;
  count: number;
  p50: number;
  p99: number;
  errors: number;
}

export interface StepResult {
  investors: number;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** The first failed answer, to say why a step failed. */
  firstError: string | null;
  /** p99 of how late the bench itself sent a due poll: the load generator's own share of the machine. */
  lateP99: number;
  endpoints: EndpointStats[];
  /** Requests answered 2xx, and their p50 and p99. */
  answered: { requests: number; p50: number; p99: number };
  /** Polls answered 503 `overloaded` (shed: the simulated investor waits as the web does, pollBackoffMs). */
  shed: number;
  /** The money requests sent during the step (Withdraw All), when asked for: their answers by status, and p99. */
  money: { sent: number; statuses: Record<string, number>; p99: number } | null;
}

/** The withdrawal password of every seeded investor (apps/server/scripts/seed-large.ts). */
const SEED_WITHDRAWAL_PASSWORD = 'seed-withdrawal';
const overloaded = (a: Answer) => a.status === 503 && a.body.includes('"overloaded"');
/** The Retry-After an answer asks for, in ms (the server's 503 carries it in its headers; 0 when absent). */
const retryAfterMs = (a: Answer) => (a.retryAfter && /^\d+$/.test(a.retryAfter) ? Number(a.retryAfter) * 1000 : 0);

export const passes = (r: StepResult, p99Ms: number) => r.errors === 0 && r.p99 < p99Ms;

export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

/** A small seeded generator (mulberry32): the same step draws the same sessions on every server. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
/** The endpoint a path is counted under: its path without the query, but for analytics' period. */
const endpointOf = (method: string, path: string) =>
  `${method} ${path.startsWith('/api/user/admin/analytics') ? path : path.split('?')[0]}`;

/**
 * Runs `investors` investors and `admins` administrators against `base` for `warmupS + seconds`; only requests
 * due inside the last `seconds` count, each timed from sending it to the end of its answer.
 */
export async function step(
  base: string,
  pool: Pool,
  adminToken: string,
  o: {
    investors: number;
    admins: number;
    seconds: number;
    warmupS: number;
    seed: number;
    /** Investors who each send one Withdraw All, one every `everyMs` through the step (the overload step). */
    money?: { tokens: string[]; everyMs: number };
  },
): Promise<StepResult> {
  const rnd = random(o.seed);
  const start = performance.now();
  const from = start + o.warmupS * 1000;
  const end = from + o.seconds * 1000;
  const samples = new Map<string, number[]>();
  const errors = new Map<string, number>();
  let firstError: string | null = null;
  const inFlight = new Set<Promise<unknown>>();
  const late: number[] = [];
  const answered: number[] = [];
  let shed = 0;
  const money = o.money ? { sent: 0, statuses: {} as Record<string, number>, times: [] as number[] } : null;

  const record = (name: string, ms: number, status: number, body: string) => {
    (samples.get(name) ?? samples.set(name, []).get(name))?.push(ms);
    if (status >= 200 && status < 300) return void answered.push(ms);
    if (status === 503 && body.includes('"overloaded"')) shed++;
    errors.set(name, (errors.get(name) ?? 0) + 1);
    firstError ??= `${name} -> ${status || 'no answer'} ${body.slice(0, 200)}`;
  };
  const fire = (path: string, token: string, dueAt: number, then?: (a: Answer) => void) => {
    const counted = dueAt >= from && dueAt < end;
    const sent = performance.now();
    if (counted) late.push(sent - dueAt);
    const p = call(base, 'GET', path, { token }).then((a) => {
      if (counted) record(endpointOf('GET', path), performance.now() - sent, a.status, a.body);
      then?.(a);
    });
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };

  const investor = async () => {
    // The slot is met in the middle of a session: its first poll is due somewhere in its interval, and the
    // session ends somewhere in its length, so sessions open evenly over the step rather than all at its start.
    let poll = rnd() < DEPOSIT_SHARE ? DEPOSIT : INVESTMENTS;
    let token = pool.tokens[pool.next++ % pool.tokens.length] ?? '';
    let due = start + rnd() * poll.everyMs;
    let sessionEnd = start + rnd() * SESSION_MS[1];
    // A shed poll (503 overloaded) waits as the web's does: Retry-After at least, longer each time in a row.
    let shedInARow = 0;
    let waitUntil = 0;
    const answer = (a: Answer) => {
      if (overloaded(a)) {
        shedInARow++;
        waitUntil = Math.max(waitUntil, performance.now() + pollBackoffMs(shedInARow, poll.everyMs, retryAfterMs(a)));
      } else if (a.status >= 200 && a.status < 300) shedInARow = 0;
    };
    while (due < end) {
      await sleep(due - performance.now());
      if (waitUntil > due) {
        due = waitUntil;
        continue;
      }
      const paths = poll.paths.map((p) => p.replace(/t=\d+/, t()));
      if (due >= sessionEnd) {
        // Opening the app: the session's user, then the tab's reads.
        poll = rnd() < DEPOSIT_SHARE ? DEPOSIT : INVESTMENTS;
        token = pool.tokens[pool.next++ % pool.tokens.length] ?? '';
        sessionEnd = due + SESSION_MS[0] + rnd() * (SESSION_MS[1] - SESSION_MS[0]);
        fire('/api/user/me', token, due);
      }
      for (const p of paths) fire(p, token, due, answer);
      due += poll.everyMs;
    }
  };

  const admin = async () => {
    await sleep(rnd() * THINK_MS);
    const get = async <T>(path: string): Promise<T | null> => {
      const at = performance.now();
      if (at >= end) return null;
      const a = await call(base, 'GET', path, { token: adminToken });
      if (at >= from && at < end) record(endpointOf('GET', path), performance.now() - at, a.status, a.body);
      await sleep(THINK_MS);
      return a.status === 200 ? (JSON.parse(a.body) as T) : null;
    };
    type Page = { total: number; nextCursor?: string | null; prevCursor?: string | null };
    const after = (p: Page | null) => (p?.nextCursor ? `&after=${encodeURIComponent(p.nextCursor)}` : '');
    while (performance.now() < end) {
      await get('/api/admin/dashboard');
      // Users: the first page, two pages on, the last page, one back.
      const u = `/api/admin/users?pageSize=${USERS_PAGE}`;
      let page = await get<Page>(`${u}&page=1`);
      for (let n = 2; n <= 3; n++) page = await get<Page>(`${u}&page=${n}${after(page)}`);
      const last = Math.max(1, Math.ceil((page?.total ?? 1) / USERS_PAGE));
      const lastPage = await get<Page>(`${u}&page=${last}`);
      if (last > 1 && lastPage?.prevCursor)
        await get(`${u}&page=${last - 1}&before=${encodeURIComponent(lastPage.prevCursor)}`);
      // Deposits (all statuses): the first page and the next.
      const d = `/api/admin/deposits?status=all&pageSize=${DEPOSITS_PAGE}`;
      await get<Page>(`${d}&page=1`).then((p) => get(`${d}&page=2${after(p)}`));
      // Withdrawals: the pending queue, then the history's first page and the next.
      await get(`/api/withdrawal/admin/pending?page=1&pageSize=${WITHDRAWALS_PAGE}&${t()}`);
      const w = `/api/withdrawal/admin/all?pageSize=${WITHDRAWALS_PAGE}`;
      await get<Page>(`${w}&page=1&${t()}`).then((p) => get(`${w}&page=2${after(p)}&${t()}`));
      // Analytics opens on its default period; then the 90 days.
      await get(`/api/user/admin/analytics?period=${DEFAULT_ANALYTICS_PERIOD}`);
      await get('/api/user/admin/analytics?period=90');
    }
  };

  // Withdraw All, one investor after the other through the step: money is never shed, whatever the load.
  const withdraw = async () => {
    for (const [k, token] of (o.money?.tokens ?? []).entries()) {
      const at = start + (k + 0.5) * (o.money?.everyMs ?? 0);
      if (at >= end || !money) break;
      await sleep(at - performance.now());
      const sent = performance.now();
      const p = call(base, 'POST', '/api/withdrawal/request-all', {
        token,
        body: { walletAddress: `0x${'1'.repeat(40)}`, withdrawalPassword: SEED_WITHDRAWAL_PASSWORD },
        headers: { 'idempotency-key': randomUUID() },
      }).then((a) => {
        money.sent++;
        money.statuses[a.status] = (money.statuses[a.status] ?? 0) + 1;
        money.times.push(performance.now() - sent);
      });
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
  };

  await Promise.all([
    ...Array.from({ length: o.investors }, investor),
    ...Array.from({ length: o.admins }, admin),
    withdraw(),
  ]);
  await Promise.all(inFlight);

  const all: number[] = [];
  const endpoints: EndpointStats[] = [];
  for (const [name, xs] of samples) {
    xs.sort((a, b) => a - b);
    for (const x of xs) all.push(x);
    endpoints.push({
      name,
      count: xs.length,
      p50: percentile(xs, 0.5),
      p99: percentile(xs, 0.99),
      errors: errors.get(name) ?? 0,
    });
  }
  all.sort((a, b) => a - b);
  const errorCount = [...errors.values()].reduce((s, n) => s + n, 0);
  return {
    investors: o.investors,
    seconds: o.seconds,
    requests: all.length,
    rps: all.length / o.seconds,
    p50: percentile(all, 0.5),
    p99: percentile(all, 0.99),
    errors: errorCount,
    firstError,
    lateP99: percentile(
      late.sort((a, b) => a - b),
      0.99,
    ),
    endpoints: endpoints.sort((a, b) => b.count - a.count),
    answered: (() => {
      answered.sort((a, b) => a - b);
      return { requests: answered.length, p50: percentile(answered, 0.5), p99: percentile(answered, 0.99) };
    })(),
    shed,
    money: money && {
      sent: money.sent,
      statuses: money.statuses,
      p99: percentile(
        money.times.sort((a, b) => a - b),
        0.99,
      ),
    },
  };
}
