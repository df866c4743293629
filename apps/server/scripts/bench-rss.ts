/**
 * `npm run bench:rss`: idle resident memory of the compiled server started as `npm start` starts it
 * (dist/server.js with the start script's Node flags), NODE_ENV=development as npm start's default:
 * - embedded default (PGlite) on a fresh DATA_DIR (the first start, initdb included),
 * - the same DATA_DIR started again,
 * - on PostgreSQL (BENCH_DATABASE_URL or DATABASE_URL; skipped without one).
 * Each figure is VmRSS after the server answered its readiness probe (/readyz) and stayed idle BENCH_IDLE_S seconds (5).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fmt, rssMb, SERVER_READY_PATH, serverEntry, sleep, startFlags, startTs } from './bench-lib.ts';
import { freePort } from '../test/net.ts';

const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 5);
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
const entry = serverEntry();
if (!entry.compiled) throw new Error('bench:rss measures the compiled build: scripts/build.mjs failed');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hf-rss-'));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

async function idleRss(env: Record<string, string>): Promise<{ rss: number; peak: number }> {
  const server = await startTs(
    entry.file,
    { NODE_ENV: 'development', LOG_LEVEL: 'warn', HOST: '127.0.0.1', TEST_CLOCK: '', REDIS_URL: '', ...env },
    SERVER_READY_PATH,
    await freePort(),
  );
  try {
    await sleep(IDLE_S * 1000);
    return { rss: rssMb(server.pid), peak: rssMb(server.pid, 'VmHWM') };
  } finally {
    await server.stop();
  }
}

try {
  console.log(`node ${startFlags().join(' ')} dist/server.js, idle ${IDLE_S} s after ready; load average ${load()}`);
  const dataDir = path.join(tmp, 'data');
  const lines: string[] = [];
  const fresh = await idleRss({ DATABASE_URL: '', DATA_DIR: dataDir });
  lines.push(`| embedded (PGlite), fresh DATA_DIR | ${fmt(fresh.rss, 0)} | ${fmt(fresh.peak, 0)} | <= 200 |`);
  const again = await idleRss({ DATABASE_URL: '', DATA_DIR: dataDir });
  lines.push(`| embedded (PGlite), started again | ${fmt(again.rss, 0)} | ${fmt(again.peak, 0)} | <= 200 |`);
  if (pgUrl) {
    const pg = await idleRss({ DATABASE_URL: pgUrl, DATA_DIR: path.join(tmp, 'pg-data') });
    lines.push(`| PostgreSQL | ${fmt(pg.rss, 0)} | ${fmt(pg.peak, 0)} | <= 100 |`);
  } else lines.push('| PostgreSQL | skipped: no BENCH_DATABASE_URL / DATABASE_URL | - | <= 100 |');
  console.log(['| Server | idle RSS MB | peak MB | target MB |', '|---|---:|---:|---:|', ...lines].join('\n'));
  console.log(`load average after: ${load()}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
