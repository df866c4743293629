/**
 * Shared helpers of the benchmark scripts (bench.ts, bench-scale.ts): child processes (server,
 * ceilings), a throwaway PostgreSQL, autocannon runs, RSS, the machine description.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, chownSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Request, type Result } from 'autocannon';
import { freePort } from '../test/net.ts';

export { freePort };

export const SCRIPTS_DIR = path.dirname(fileURLToPath(import.meta.url));
export const SERVER_DIR = path.resolve(SCRIPTS_DIR, '..');
export const ROOT_DIR = path.resolve(SERVER_DIR, '../..');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function envNumber(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number`);
  return n;
}

/**
 * What every benchmarked app runs with, in-process or as a server: the test clock and no rate limits
 * (NODE_ENV=test), but answers serialized as in production, without the Zod cross-check (decision 0055).
 */
export const BENCH_APP_ENV = { NODE_ENV: 'test', CHECK_RESPONSES: 'off', RATE_LIMITS: 'off', TEST_CLOCK: '1' } as const;

/** A benchmarked server's environment on `url`, signing with `secret`, its files in `dataDir`. */
export function benchServerEnv(o: {
  url: string;
  secret: string;
  ttlSeconds: number;
  dataDir: string;
  logLevel?: string;
  pool?: number;
}): Record<string, string> {
  return {
    ...BENCH_APP_ENV,
    DATABASE_URL: o.url,
    JWT_SECRET: o.secret,
    JWT_TTL_SECONDS: String(o.ttlSeconds),
    LOG_LEVEL: o.logLevel ?? 'warn',
    ...(o.pool ? { DATABASE_POOL_SIZE: String(o.pool) } : {}),
    HOST: '127.0.0.1',
    REDIS_URL: '',
    DATA_DIR: o.dataDir,
  };
}

export interface Child {
  proc: ChildProcess;
  pid: number;
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * The Node flags `npm start` runs the server with (read from the root package.json's start script,
 * so a bench measures what is shipped): the memory settings of docs/decisions/0043.
 */
export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT_DIR, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const m = /node((?: --\S+)*) apps\/server\/dist\/server\.js/.exec(pkg.scripts.start);
  if (!m) throw new Error(`cannot read the node flags of npm start: ${pkg.scripts.start}`);
  return m[1]?.trim().split(/\s+/).filter(Boolean) ?? [];
}

/** The app's readiness probe: 503 until the database answers and every migration is applied, then 200. */
export const SERVER_READY_PATH = '/readyz';

/**
 * Runs a TypeScript file in its own Node process (node --import tsx, so the pid is the process itself),
 * or a compiled JavaScript file when the name ends in .js: dist/server.js with `npm start`'s flags.
 */
export async function startTs(
  file: string,
  env: Record<string, string | undefined>,
  /** Polled until it answers below 500: SERVER_READY_PATH for the app. */
  readyPath: string,
  port: number,
): Promise<Child> {
  const args = file.endsWith('dist/server.js')
    ? [...startFlags(), file]
    : file.endsWith('.js')
      ? ['--enable-source-maps', file]
      : ['--import', 'tsx', file];
  const proc = spawn(process.execPath, args, {
    cwd: ROOT_DIR,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (b: Buffer) => {
    out = (out + b.toString()).slice(-20_000);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const done = new Promise<void>((r) => proc.once('exit', () => r()));
    proc.kill('SIGTERM');
    const t = setTimeout(() => proc.kill('SIGKILL'), 12_000);
    await done;
    clearTimeout(t);
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${path.basename(file)} exited (${proc.exitCode}):\n${out}`);
    try {
      const res = await fetch(url + readyPath);
      if (res.status < 500) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${path.basename(file)} did not become ready:\n${out}`);
    }
    await sleep(200);
  }
  return { proc, pid: proc.pid ?? 0, url, output: () => out, stop };
}

/** Resident memory of a process in MB (VmRSS, or VmHWM for the peak). */
export function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m?.[1] ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Responses of a load by kind, as autocannon counts them. */
interface StatusCounts {
  '2xx': number;
  '4xx': number;
  '5xx': number;
  errors: number;
  timeouts: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  errors: number;
  total: number;
  /** What `rps` is over: the run's measured seconds. */
  seconds: number;
  counts: StatusCounts;
  /** `counts` as the reports print them. */
  statuses: string;
}

const statusText = (c: StatusCounts) =>
  `2xx ${c['2xx']}, 4xx ${c['4xx']}, 5xx ${c['5xx']}, errors ${c.errors}, timeouts ${c.timeouts}`;

export interface LoadOptions {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  overallRate?: number;
  /** Builds request i (0, 1, 2, ...): distinct users, distinct bodies. */
  request: (i: number) => { method?: string; path: string; headers?: Record<string, string>; body?: string };
}

/** One autocannon run; every request is built afresh by `request(i)` (setupRequest). */
export async function load(opts: LoadOptions): Promise<LoadResult> {
  let i = 0;
  const requests: Request[] = [
    {
      setupRequest: () => {
        const r = opts.request(i++);
        return {
          method: r.method ?? 'GET',
          path: r.path,
          headers: { ...(r.body ? { 'content-type': 'application/json' } : {}), ...r.headers },
          body: r.body,
        };
      },
    },
  ];
  const run = autocannon({
    url: opts.url,
    connections: opts.connections,
    ...(opts.amount ? { amount: opts.amount } : { duration: opts.duration ?? 10 }),
    ...(opts.overallRate ? { overallRate: Math.max(1, Math.round(opts.overallRate)) } : {}),
    timeout: 30,
    requests,
  });
  // With `amount`, autocannon notices the last response only at its next one-second sample, so its duration
  // is rounded up to whole seconds (1,000 invests done in 5.9 s reported as 7.0 s): such a run is timed
  // from its start to its last response instead. (Only then: a listener on every response of a duration run
  // would cost the load generator time on the same two cores.)
  const started = performance.now();
  let lastResponse = started;
  if (opts.amount)
    run.on('response', () => {
      lastResponse = performance.now();
    });
  const res: Result = await run;
  const total = res['2xx'] + res.non2xx + res.errors + res.timeouts;
  const measured = opts.amount ? (lastResponse - started) / 1000 : res.duration;
  const seconds = measured > 0 ? measured : 1;
  const counts: StatusCounts = {
    '2xx': res['2xx'],
    '4xx': res['4xx'],
    '5xx': res['5xx'],
    errors: res.errors,
    timeouts: res.timeouts,
  };
  return {
    rps: res['2xx'] / seconds,
    p50: res.latency.p50,
    p99: res.latency.p99,
    ok: res['2xx'],
    errors: res.non2xx + res.errors + res.timeouts,
    total,
    seconds,
    counts,
    statuses: statusText(counts),
  };
}

/**
 * Two loads in alternation, `slices` turns each (A, B, A, B, ...), each turn a `slices`-th of its duration:
 * on a machine whose speed drifts within a minute, both see the same spread of it, where one run of A
 * between two of B is judged against whatever the machine did before and after it (decision 0067).
 * Each result is the sum of its turns: requests per second over all its seconds, p50 the median of the turns'
 * p50s, p99 the highest turn's; `turns` keeps each turn's req/s.
 */
export async function alternate(
  a: LoadOptions,
  b: LoadOptions,
  slices: number,
): Promise<[LoadResult & { turns: number[] }, LoadResult & { turns: number[] }]> {
  const turns: [LoadResult[], LoadResult[]] = [[], []];
  const slice = (o: LoadOptions) => ({ ...o, duration: (o.duration ?? 10) / slices });
  for (let k = 0; k < slices; k++) {
    turns[0].push(await load(slice(a)));
    turns[1].push(await load(slice(b)));
  }
  const merged = (rs: LoadResult[]) => {
    const sum = (f: (r: LoadResult) => number) => rs.reduce((n, r) => n + f(r), 0);
    const counts: StatusCounts = {
      '2xx': sum((r) => r.counts['2xx']),
      '4xx': sum((r) => r.counts['4xx']),
      '5xx': sum((r) => r.counts['5xx']),
      errors: sum((r) => r.counts.errors),
      timeouts: sum((r) => r.counts.timeouts),
    };
    // Over the turns' own measured seconds, not the nominal slices.
    const seconds = sum((r) => r.seconds);
    return {
      rps: sum((r) => r.ok) / seconds,
      p50: median(rs.map((r) => r.p50)),
      p99: Math.max(...rs.map((r) => r.p99)),
      ok: sum((r) => r.ok),
      errors: sum((r) => r.errors),
      total: sum((r) => r.total),
      seconds,
      counts,
      statuses: statusText(counts),
      turns: rs.map((r) => r.rps),
    };
  };
  return [merged(turns[0]), merged(turns[1])];
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** A weekday (Mon-Thu) at 09:00 UTC, 1-4 days ahead: invest and start are open, and 8 h later still a weekday. */
export function benchDay(): Date {
  const d = new Date();
  d.setUTCHours(9, 0, 0, 0);
  do d.setUTCDate(d.getUTCDate() + 1);
  while (d.getUTCDay() === 0 || d.getUTCDay() >= 5);
  return d;
}

/** Sets a benchmarked server's clock (TEST_CLOCK=1) to `at`. */
export async function setServerClock(serverUrl: string, at: Date): Promise<void> {
  const r = await fetch(`${serverUrl}/api/__test__/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ now: at.toISOString() }),
  });
  if (!r.ok) throw new Error(`clock: ${r.status}`);
}

/** Ceiling of an endpoint doing q database round trips: 1 / (1/L_http + q/L_db). */
export const ceiling = (lHttp: number, lDb: number, q: number) => 1 / (1 / lHttp + q / lDb);

export interface PgHandle {
  url: string;
  started: boolean;
  stop: () => Promise<void>;
}

function pgBin(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], 'bin') : null;
}

/**
 * BENCH_DATABASE_URL or DATABASE_URL when set; otherwise a throwaway PostgreSQL cluster in a temporary
 * directory (initdb from /usr/lib/postgresql/<v>/bin; as root it runs as the postgres user) on BENCH_PG_PORT.
 */
export async function ensurePostgres(): Promise<PgHandle> {
  const given = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
  if (given) return { url: given, started: false, stop: async () => undefined };
  const bin = pgBin();
  if (!bin)
    throw new Error(
      'No PostgreSQL: set DATABASE_URL (or BENCH_DATABASE_URL), or install PostgreSQL (initdb under /usr/lib/postgresql).',
    );
  const port = process.env.BENCH_PG_PORT ? Number(process.env.BENCH_PG_PORT) : await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hf-bench-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], { stdio: 'pipe' });
    else execFileSync(path.join(bin, cmd), args, { stdio: 'pipe' });
  };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  console.log(`Starting a throwaway PostgreSQL in ${dir} on port ${port} ...`);
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8']);
  run('pg_ctl', [
    '-D',
    data,
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=256MB -c synchronous_commit=on`,
    '-l',
    path.join(dir, 'log'),
    '-w',
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    started: true,
    stop: async () => {
      run('pg_ctl', ['-D', data, '-m', 'fast', 'stop']);
    },
  };
}

/**
 * Runs PostgreSQL 15's pgbench (the newest under /usr/lib/postgresql) against the database of `url`
 * (its last path segment); returns what it printed. Throws with pgbench's stderr when it fails.
 */
export function pgbench(url: string, args: string[]): string {
  const bin = pgBin();
  if (!bin || !existsSync(path.join(bin, 'pgbench'))) throw new Error('pgbench not found under /usr/lib/postgresql');
  const u = new URL(url);
  const conn = ['-h', u.hostname, '-p', u.port || '5432', '-U', decodeURIComponent(u.username || 'postgres')];
  const env = { ...process.env, PGPASSWORD: decodeURIComponent(u.password) };
  const database = decodeURIComponent(u.pathname.replace(/^\//, '')) || 'postgres';
  return execFileSync(path.join(bin, 'pgbench'), [...conn, ...args, database], {
    env,
    stdio: 'pipe',
    maxBuffer: 64 * 1024 * 1024,
  }).toString();
}

/**
 * PostgreSQL's own select-only ceiling on the same cluster: `pgbench -S` (scale 10, initialised once
 * in the database hf_pgbench) with `clients` clients for `seconds`, simple and prepared protocol.
 */
export async function pgbenchSelectOnly(
  url: string,
  clients: number,
  seconds: number,
): Promise<{ simple: number; prepared: number; command: string }> {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const have = await c.query(`SELECT 1 FROM pg_database WHERE datname = 'hf_pgbench'`);
  if (have.rowCount === 0) await c.query('CREATE DATABASE hf_pgbench');
  await c.end();
  const target = Object.assign(new URL(url), { pathname: '/hf_pgbench' }).toString();
  const probe = new pg.Client({ connectionString: target });
  await probe.connect();
  const ready = await probe.query(`SELECT to_regclass('pgbench_accounts') IS NOT NULL AS ok`);
  await probe.end();
  if (!ready.rows[0]?.ok) pgbench(target, ['-i', '-s', '10', '-q']);
  const tps = (mode: string) => {
    const out = pgbench(target, ['-S', '-n', '-M', mode, '-c', String(clients), '-j', '2', '-T', String(seconds)]);
    const m = /tps = ([\d.]+) \(without initial connection time\)/.exec(out);
    return m?.[1] ? Number(m[1]) : NaN;
  };
  const simple = tps('simple');
  const prepared = tps('prepared');
  return {
    simple,
    prepared,
    command: `pgbench -S -n -M simple|prepared -c ${clients} -j 2 -T ${seconds} (scale 10)`,
  };
}

/** The load average of the machine (1, 5, 15 minutes) and its cores: the bench shares them. */
export function loadAverage(): string {
  try {
    const [a, b, c] = readFileSync('/proc/loadavg', 'utf8').split(' ');
    return `${a} / ${b} / ${c} (1/5/15 min) on ${os.availableParallelism()} cores`;
  } catch {
    return 'n/a';
  }
}

/**
 * The server to run: the compiled build (dist/server.js, `npm start`'s) when scripts/build.mjs can
 * make it, else the TypeScript sources through tsx.
 */
export function serverEntry(): { file: string; compiled: boolean } {
  try {
    execFileSync(process.execPath, [path.join(SERVER_DIR, 'scripts/build.mjs'), '--if-stale', '--quiet'], {
      cwd: SERVER_DIR,
      stdio: 'pipe',
    });
    const file = path.join(SERVER_DIR, 'dist/server.js');
    if (existsSync(file)) return { file, compiled: true };
  } catch {
    /* no build: run the sources */
  }
  return { file: path.join(SERVER_DIR, 'src/server.ts'), compiled: false };
}

export function machine(): string {
  const cpu =
    /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  const ram = (os.totalmem() / 1024 ** 3).toFixed(1);
  return `${os.availableParallelism()} cores (${cpu.trim()}), ${ram} GB RAM, Node ${process.version}, ${os.type()} ${os.release()}`;
}

export const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
