import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackgroundJobs } from '../../src/jobs.ts';
import { Metrics, startMetricsServer } from '../../src/lib/metrics.ts';
import { freePort } from '../net.ts';
import { call, createTestApp, fund, makeUser, type TestApp } from '../helpers.ts';
import { WALLET } from '../support/money.ts';

/** Prometheus text on its own listener (METRICS_PORT), fed by the app's requests, jobs and database. */
let t: TestApp;
let server: Server;
let url: string;
beforeAll(async () => {
  t = await createTestApp({ DEPOSIT_CHECK_INTERVAL_MS: '100' }, { metrics: new Metrics({ processMetrics: true }) });
  const port = await freePort();
  server = await startMetricsServer(t.ctx.metrics, port, '127.0.0.1');
  url = `http://127.0.0.1:${port}/metrics`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await t.close();
});

const scrape = async () => {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
};
/** The value of one sample line (name with its labels exactly as printed). */
const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('metrics listener', () => {
  it('counts pending deposits and withdrawals (read at most every 10 s: this test scrapes first), database connections, process memory and event-loop lag', async () => {
    const u = await makeUser(t);
    await fund(t, u.user.id, 25_000_000n);
    const deposit = await call(t, 'POST', '/api/user/process-deposit', {
      token: u.token,
      body: { txHash: `0x${'ab'.repeat(32)}`, amount: 10, fromAddress: WALLET },
    });
    expect(deposit.statusCode, JSON.stringify(deposit.data)).toBe(200);
    const withdrawal = await call(t, 'POST', '/api/withdrawal/request-all', {
      token: u.token,
      body: { walletAddress: WALLET, withdrawalPassword: u.withdrawalPassword },
    });
    expect(withdrawal.statusCode, JSON.stringify(withdrawal.data)).toBe(200);
    const text = await scrape();
    expect(sample(text, 'deposits_pending')).toBe(1);
    expect(sample(text, 'withdrawals_pending')).toBe(1);
    // The Withdraw All receipt, queued and not sent yet (the mail-outbox job is not running here).
    expect(sample(text, 'mail_outbox_unsent')).toBe(1);
    expect(sample(text, 'db_pool_connections{state="max"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toContain('nodejs_heap_size_used_bytes');
  });

  it('listens on the address it is given, serves only GET /metrics', async () => {
    const addr = server.address();
    expect(typeof addr === 'object' && addr?.address).toBe('127.0.0.1');
    expect((await fetch(url.replace('/metrics', '/'))).status).toBe(404);
    // Not on the public app: the figures never go out through the reverse proxy (the path is just
    // another page of the single-page app there, or 404 without a web build).
    const onApp = await call(t, 'GET', '/metrics');
    expect(onApp.body).not.toContain('http_request_duration_seconds');
    expect(onApp.headers['content-type']).not.toMatch(/^text\/plain/);
  });

  it('times HTTP requests by route pattern (not by path) and status', async () => {
    const u = await makeUser(t);
    for (let i = 0; i < 3; i++) await call(t, 'GET', '/api/user/me', { token: u.token });
    await call(t, 'GET', '/api/user/me');
    await call(t, 'GET', `/api/admin/users/${u.user.id}/deposits`, { token: u.token });
    await call(t, 'GET', '/no/such/page.js');
    const text = await scrape();
    expect(
      sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/user/me",status_code="200"}'),
    ).toBe(3);
    expect(
      sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/user/me",status_code="401"}'),
    ).toBe(1);
    expect(text).toContain('route="/api/admin/users/:id/deposits",status_code="403"');
    expect(text).not.toContain(u.user.id);
    expect(text).toContain('route="unmatched",status_code="404"');
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/user\/me"/);
  });

  it('shows the deposit watcher lag it is given', async () => {
    t.ctx.metrics.watcherLagBlocks.set(42);
    expect(sample(await scrape(), 'deposit_watcher_lag_blocks')).toBe(42);
  });

  it('counts background job runs and times them', async () => {
    const jobs = startBackgroundJobs(t.ctx);
    try {
      let runs: number | undefined;
      for (let i = 0; i < 100 && !runs; i++) {
        await new Promise((r) => setTimeout(r, 100));
        runs = sample(await scrape(), 'job_runs_total{job="deposit-recheck",result="ok"}');
      }
      expect(runs).toBeGreaterThanOrEqual(1);
      expect(await scrape()).toContain('job_duration_seconds_count{job="deposit-recheck"}');
    } finally {
      await jobs.stop();
    }
    // A failing run is counted as failed and its error passed on.
    await expect(
      t.ctx.metrics.timeJob('probe', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(sample(await scrape(), 'job_runs_total{job="probe",result="failed"}')).toBe(1);
  });
});
