/**
 * A checkout of Harvest Farm as the bench uses it from outside: its seed command, its migrations, and its server
 * started as `npm start` runs it (the compiled build with the Node flags of the start script; the TypeScript
 * sources through tsx when it cannot be built).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../apps/server/test/net.ts';

export interface Server {
  label: string;
  url: string;
  pid: number;
  compiled: boolean;
  stop: () => Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The migration tags of a checkout, in order (drizzle's journal). */
export function migrations(dir: string): string[] {
  const file = path.join(dir, 'apps/server/src/db/migrations/meta/_journal.json');
  const journal = JSON.parse(readFileSync(file, 'utf8')) as { entries: { tag: string }[] };
  return journal.entries.map((e) => e.tag);
}

/** `npm run seed:large -- --users n` of the checkout, on `url`; its output goes to ours. */
export function seed(dir: string, url: string, users: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'seed:large', '--', '--users', String(users)], {
      cwd: dir,
      env: { ...process.env, DATABASE_URL: url },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`seed:large in ${dir} exited ${code}`))));
  });
}

/** The node flags of the checkout's `npm start` (its start script runs `node <flags> apps/server/dist/server.js`). */
function startFlags(dir: string): string[] {
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const m = /node((?: --\S+)*) apps\/server\/dist\/server\.js/.exec(pkg.scripts.start);
  return m?.[1]?.trim().split(/\s+/).filter(Boolean) ?? [];
}

function build(dir: string): boolean {
  try {
    execFileSync(process.execPath, ['apps/server/scripts/build.mjs', '--if-stale', '--quiet'], {
      cwd: dir,
      stdio: 'pipe',
    });
    return existsSync(path.join(dir, 'apps/server/dist/server.js'));
  } catch {
    return false;
  }
}

/**
 * Starts the checkout's server on `databaseUrl` and waits for /readyz (migrations applied). The environment is the
 * black-box tests': NODE_ENV=test for the settable clock, no rate limits, answers serialized as in production.
 */
export async function startServer(
  label: string,
  dir: string,
  o: {
    databaseUrl: string;
    secret: string;
    admin: { email: string; password: string };
    /** More Node flags (the profile's --cpu-prof) and settings over the defaults below. */
    nodeFlags?: string[];
    env?: Record<string, string>;
  },
): Promise<Server> {
  const compiled = build(dir);
  const args = compiled
    ? [...startFlags(dir), ...(o.nodeFlags ?? []), 'apps/server/dist/server.js']
    : [...(o.nodeFlags ?? []), '--import', 'tsx', 'apps/server/src/server.ts'];
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hf-bench-data-'));
  const proc = spawn(process.execPath, args, {
    cwd: dir,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      TEST_CLOCK: '1',
      RATE_LIMITS: 'off',
      CHECK_RESPONSES: 'off',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: o.databaseUrl,
      DATA_DIR: dataDir,
      REDIS_URL: '',
      JWT_SECRET: o.secret,
      JWT_TTL_SECONDS: String(30 * 24 * 3600),
      ADMIN_EMAIL: o.admin.email,
      ADMIN_PASSWORD: o.admin.password,
      ...o.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (b: Buffer) => (out = (out + b.toString()).slice(-20_000));
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(t);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  // A first start on a large seed may migrate it for minutes.
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the server of ${dir} exited (${proc.exitCode}):\n${out}`);
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server of ${dir} did not become ready:\n${out}`);
    }
    await sleep(250);
  }
  return { label, url, pid: proc.pid ?? 0, compiled, stop };
}
