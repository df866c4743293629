/**
 * `npm run bench:profile -- --investors N [--dir CHECKOUT]`: where one poll's time goes. Starts the checkout's server
 * as the bench does, with Node's --cpu-prof, runs one bench step of N investors against it, and prints the
 * server's processor time per answered request by part (bench/README.md, "Where a poll's time goes"). The seed is
 * the bench's (BENCH_DATABASE_URL, or a throwaway cluster seeded here). LOG_LEVEL is production's, info.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { login, signIn } from './accounts.ts';
import { seed, startServer } from './checkout.ts';
import { seededUsers, seedingMode, startPostgres } from './cluster.ts';
import { step, type Pool } from './load.ts';
import { freePort } from '../../apps/server/test/net.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values: opt } = parseArgs({
  options: {
    investors: { type: 'string', default: '1000' },
    dir: { type: 'string', default: ROOT },
    users: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '20' },
    'log-level': { type: 'string', default: 'info' },
  },
});

/** The parts of a poll, by where the code lives (the first that matches the innermost frame with a place). */
const PARTS: [string, RegExp][] = [
  ['authentication and the session read', /plugins\/auth\.ts|lib\/tokens\.ts|modules\/sessions\/|node_modules\/jose\//],
  [
    'SQL and the driver',
    /node_modules\/(pg|pg-protocol|pg-pool|pg-types|pg-connection-string|postgres-[a-z]+|drizzle-orm)\/|server\/src\/db\/|\.queries\.ts/,
  ],
  ['serialization', /node_modules\/fast-json-stringify\/|lib\/response-serializer\.ts/],
  [
    'logging',
    /node_modules\/(pino|pino-std-serializers|sonic-boom|fast-redact|@pinojs\/[^/]+)\/|plugins\/observability\.ts/,
  ],
  ['metrics', /node_modules\/prom-client\/|lib\/metrics\.ts/],
  [
    'the framework (routing, hooks, validation, headers)',
    /node_modules\/(fastify|@fastify\/[^/]+|find-my-way|avvio|light-my-request|fast-querystring|fastify-type-provider-zod|zod|helmet|toad-cache|rfdc|content-type|secure-json-parse|fastify-plugin|fast-decode-uri-component)\/|server\/src\/plugins\//,
  ],
  ['the app (routes, services, shared code)', /apps\/server\/src\/|packages\/shared\/src\//],
];

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const maps = new Map<string, TraceMap | null>();
/** Where a frame's code lives: its source file for the server's bundle (its source map), else its URL. */
function place(f: Frame): string {
  if (!f.url.startsWith('file://') || f.url.includes('/node_modules/')) return f.url;
  const file = fileURLToPath(f.url);
  if (!maps.has(file)) {
    try {
      maps.set(file, new TraceMap(readFileSync(`${file}.map`, 'utf8'), file));
    } catch {
      maps.set(file, null);
    }
  }
  const map = maps.get(file);
  if (!map) return f.url;
  const p = originalPositionFor(map, { line: f.lineNumber + 1, column: Math.max(0, f.columnNumber) });
  return p.source ?? f.url;
}

/** Processor time (µs) by part over the samples taken between `from` and `to` (monotonic µs). */
function breakdown(profile: Profile, from: number, to: number): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const partOf = new Map<number, string>();
  const part = (id: number): string => {
    const known = partOf.get(id);
    if (known) return known;
    const f = byId.get(id)?.callFrame;
    let found: string | null = null;
    if (f?.functionName === '(garbage collector)') found = 'garbage collection';
    else if (f?.functionName === '(idle)') found = 'idle';
    else if (f?.functionName === '(program)') found = 'V8 and native code outside JavaScript';
    else if (f?.url) {
      const where = place(f);
      found = PARTS.find(([, re]) => re.test(where))?.[0] ?? null;
    }
    const up = parent.get(id);
    const result = found ?? (up === undefined ? 'Node (HTTP parser, sockets, timers)' : part(up));
    partOf.set(id, result);
    return result;
  };
  const totals = new Map<string, number>();
  let t = profile.startTime;
  for (const [i, id] of profile.samples.entries()) {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    if (t < from || t > to) continue;
    const p = part(id);
    totals.set(p, (totals.get(p) ?? 0) + dt);
  }
  return totals;
}

async function main() {
  const dir = path.resolve(opt.dir ?? ROOT);
  const investors = Number(opt.investors);
  const seconds = Number(opt.seconds);
  const pgs = await startPostgres();
  try {
    let seeded = await seededUsers(pgs.url);
    if (seeded === 0) {
      console.log(`Seeding ${opt.users} users with the seed of ${dir} ...`);
      await seedingMode(pgs, true);
      await seed(dir, pgs.url, Number(opt.users));
      await seedingMode(pgs, false);
      seeded = await seededUsers(pgs.url);
    }
    const profDir = mkdtempSync(path.join(os.tmpdir(), 'hf-profile-'));
    const metricsPort = await freePort();
    // A new administrator each run: a kept database (BENCH_DATABASE_URL) holds the last run's.
    const admin = {
      email: `profile-${randomBytes(4).toString('hex')}@bench.harvest`,
      password: randomBytes(12).toString('hex'),
    };
    const server = await startServer(dir, dir, {
      databaseUrl: pgs.url,
      secret: randomBytes(32).toString('hex'),
      admin,
      nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profDir}`],
      env: { LOG_LEVEL: opt['log-level'] ?? 'info', METRICS_PORT: String(metricsPort) },
    });
    // The event loop's mean delay per quarter second, as plugins/overload.ts reads it (from the metrics listener:
    // prom-client's histogram, reset at each scrape, its 10 ms timer taken off).
    const lag: { at: number; ms: number }[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const text = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then(
          (r) => r.text(),
          () => '',
        );
        const m = /^nodejs_eventloop_lag_mean_seconds (\S+)$/m.exec(text);
        if (m?.[1]) lag.push({ at: Number(process.hrtime.bigint() / 1000n), ms: Number(m[1]) * 1000 - 10 });
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    // A failure from here on stops the server too (its profile is then not read).
    const failed = (err: unknown) => {
      sampling = false;
      return server.stop().then(() => Promise.reject(err));
    };
    const pool: Pool = { tokens: [], next: 0 };
    await signIn(server.url, pool.tokens, Math.min(investors, seeded), seeded).catch(failed);
    const adminToken = await login(server.url, admin.email, admin.password).catch(failed);
    // The warm-up is the step's own; the profile is read over its measured seconds only (both clocks monotonic).
    const warmupS = 5;
    const began = Number(process.hrtime.bigint() / 1000n);
    const r = await step(server.url, pool, adminToken, {
      investors,
      admins: 2,
      seconds,
      warmupS,
      seed: investors,
    }).catch(failed);
    const from = began + warmupS * 1e6;
    const to = from + seconds * 1e6;
    sampling = false;
    await sampler;
    await server.stop();
    const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no profile written in ${profDir}`);
    const profile = JSON.parse(readFileSync(path.join(profDir, file), 'utf8')) as Profile;
    const totals = breakdown(profile, from, to);
    const idle = totals.get('idle') ?? 0;
    totals.delete('idle');
    const busy = [...totals.values()].reduce((a, b) => a + b, 0);
    const per = (us: number) => (us / r.requests).toFixed(0);
    console.log(
      `\n${dir}: ${investors} investors, ${r.requests} requests in ${seconds} s (${r.rps.toFixed(0)}/s), ` +
        `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.errors} errors (${r.shed} polls shed); server busy ` +
        `${((100 * busy) / Math.max(1, busy + idle)).toFixed(0)} % of the window; profile ${path.join(profDir, file)}\n`,
    );
    const windows = lag
      .filter((l) => l.at > from && l.at <= to)
      .map((l) => l.ms)
      .sort((a, b) => a - b);
    const q = (p: number) => (windows[Math.min(windows.length - 1, Math.floor(p * windows.length))] ?? NaN).toFixed(1);
    console.log(
      `Event loop mean delay per quarter second over the window: median ${q(0.5)} ms, p90 ${q(0.9)} ms, ` +
        `max ${q(1)} ms (${windows.length} windows)\n`,
    );
    console.log('| Part | µs of processor per request | share |\n|---|---:|---:|');
    for (const [name, us] of [...totals].sort((a, b) => b[1] - a[1]))
      console.log(`| ${name} | ${per(us)} | ${((100 * us) / busy).toFixed(0)} % |`);
    console.log(`| **all** | **${per(busy)}** | 100 % |`);
  } finally {
    pgs.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
