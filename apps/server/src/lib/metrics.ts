import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the pool gauge reads from the database (PGlite: one connection, never waiting). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/** Figures that need a query: read at most once per `PENDING_CACHE_MS`, whatever the scrape rate. */
export interface PendingCounts {
  deposits: number;
  withdrawals: number;
  /** E-mails in the outbox not sent yet (SMTP down or slow: they wait, they are not lost). */
  mails: number;
  /** Differences the last finished reconciliation against the chain found (0 before any). */
  unreconciled: number;
  /** Chain alarms no administrator has acknowledged yet. */
  chainAlarms: number;
}

const PENDING_CACHE_MS = 10_000;

/** What a job run says of itself: `failed` when it could not do its work (and logged why) without throwing. */
export type JobResult = void | 'failed';

/**
 * The process's Prometheus metrics, in their own registry (tests build many apps in one process).
 * Sources that need the database are attached after the app is built (`attach`); the deposit
 * watcher sets its lag with `watcherLagBlocks.set(n)`.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly jobRuns: Counter<'job' | 'result'>;
  readonly jobDuration: Histogram<'job'>;
  /** Blocks the deposit watcher is behind the chain's head (set by the watcher on every pass). */
  readonly watcherLagBlocks: Gauge;
  /** Unix seconds of the watcher's last pass that read up to its target (0 before the first). */
  readonly watcherLastSuccess: Gauge;
  /** Passes that could not read the chain, by why (rpc, lagging, truncated, changed, deep_reorg, fork_not_found). */
  readonly watcherErrors: Counter<'kind'>;
  private poolStats: () => PoolStats = () => ({ total: 0, idle: 0, waiting: 0, max: 0 });
  private pendingCounts: (() => Promise<PendingCounts>) | null = null;
  private pendingCache: { at: number; value: Promise<PendingCounts> } | null = null;

  constructor(opts: { processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    if (opts.processMetrics) collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route pattern and status',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.jobRuns = new Counter({
      name: 'job_runs_total',
      help: 'Background job runs by result (ok, failed)',
      labelNames: ['job', 'result'],
      registers,
    });
    this.jobDuration = new Histogram({
      name: 'job_duration_seconds',
      help: 'Background job run duration',
      labelNames: ['job'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60],
      registers,
    });
    this.watcherLagBlocks = new Gauge({
      name: 'deposit_watcher_lag_blocks',
      help: 'Blocks between the chain head and the last block the deposit watcher has processed',
      registers,
    });
    this.watcherLastSuccess = new Gauge({
      name: 'deposit_watcher_last_success_timestamp_seconds',
      help: 'Unix time of the deposit watcher pass that last read the chain up to its target (0 before the first)',
      registers,
    });
    this.watcherLastSuccess.set(0);
    this.watcherErrors = new Counter({
      name: 'deposit_watcher_errors_total',
      help: 'Deposit watcher passes that stopped on a fault, by kind',
      labelNames: ['kind'],
      registers,
    });
    const pool = () => this.poolStats();
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database connections of this instance by state (total, idle, waiting clients, max)',
      labelNames: ['state'],
      registers,
      collect() {
        const s = pool();
        this.set({ state: 'total' }, s.total);
        this.set({ state: 'idle' }, s.idle);
        this.set({ state: 'waiting' }, s.waiting);
        this.set({ state: 'max' }, s.max);
      },
    });
    const pending = () => this.pending();
    new Gauge({
      name: 'deposits_pending',
      help: 'Deposits waiting for confirmations or an administrator (cached 10 s)',
      registers,
      async collect() {
        const p = await pending();
        if (p) this.set(p.deposits);
      },
    });
    new Gauge({
      name: 'mail_outbox_unsent',
      help: 'E-mails queued and not yet accepted by the SMTP server (cached 10 s)',
      registers,
      async collect() {
        const p = await pending();
        if (p) this.set(p.mails);
      },
    });
    new Gauge({
      name: 'deposits_unreconciled',
      help: 'Differences between credited deposits and the chain found by the last reconciliation (cached 10 s)',
      registers,
      async collect() {
        const p = await pending();
        if (p) this.set(p.unreconciled);
      },
    });
    new Gauge({
      name: 'chain_alarms_open',
      help: 'Chain alarms (deep re-organisations, credited transfers gone) not acknowledged yet (cached 10 s)',
      registers,
      async collect() {
        const p = await pending();
        if (p) this.set(p.chainAlarms);
      },
    });
    new Gauge({
      name: 'withdrawals_pending',
      help: 'Withdrawals waiting for an administrator (cached 10 s)',
      registers,
      async collect() {
        const p = await pending();
        if (p) this.set(p.withdrawals);
      },
    });
  }

  attach(sources: { poolStats: () => PoolStats; pendingCounts: () => Promise<PendingCounts> }): void {
    this.poolStats = sources.poolStats;
    this.pendingCounts = sources.pendingCounts;
  }

  private async pending(): Promise<PendingCounts | null> {
    if (!this.pendingCounts) return null;
    // A cache of the scrape's counts on the process's monotonic timer: it spares the database, no business time.
    const now = performance.now();
    if (!this.pendingCache || now - this.pendingCache.at > PENDING_CACHE_MS) {
      const value = this.pendingCounts();
      this.pendingCache = { at: now, value };
      // A failed count is not cached: the next scrape asks again.
      value.catch(() => {
        if (this.pendingCache?.value === value) this.pendingCache = null;
      });
    }
    return this.pendingCache.value.catch(() => null);
  }

  /** Times a job run and counts it as ok or failed (it threw, or said so); the job's error is passed on. */
  async timeJob(job: string, run: () => Promise<JobResult>): Promise<void> {
    const end = this.jobDuration.startTimer({ job });
    try {
      const result = await run();
      this.jobRuns.inc({ job, result: result === 'failed' ? 'failed' : 'ok' });
    } catch (err) {
      this.jobRuns.inc({ job, result: 'failed' });
      throw err;
    } finally {
      end();
    }
  }
}

/**
 * The metrics listener: Prometheus text at GET /metrics on its own port, apart from the public one,
 * so the figures are never exposed through the reverse proxy. Bound to METRICS_HOST (loopback default).
 */
export async function startMetricsServer(metrics: Metrics, port: number, host: string): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${String(err)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
