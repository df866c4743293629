import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../net.ts';

/**
 * The real server started as an operator starts it (`src/server.ts`, embedded database, no
 * ADMIN_* set) on a DATA_DIR an older version left open to everyone. The tests are named by their
 * rows in docs/SECURITY.md's table of the outside attack:
 *  - item 4: the embedded database files are owner-only (PGlite's initdb writes 0666/0755).
 *  - item 10: the demo administrator has no known password (such as `harvest-admin`).
 */
/** The production build (the system suite's global setup made it): what `npm start` runs on a first start. */
const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/server.js');
const ROOT = path.resolve(path.dirname(SERVER), '../../..');

interface Started {
  child: ChildProcess;
  output: () => string;
  base: string;
  stop(): Promise<void>;
}

async function start(dataDir: string): Promise<Started> {
  const port = await freePort();
  let out = '';
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'development', HOST: '127.0.0.1', PORT: String(port) };
  for (const k of ['ADMIN_EMAIL', 'ADMIN_PASSWORD', 'JWT_SECRET', 'DATABASE_URL', 'SMTP_URL', 'REDIS_URL'])
    delete env[k];
  Object.assign(env, { DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMITS: 'off' });
  // The umask an operator's shell usually has: files 0644, folders 0755 unless the server tightens them.
  const child = spawn(process.execPath, ['--enable-source-maps', SERVER], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${out}`);
    if (out.includes('Harvest Farm is running')) break;
    if (Date.now() > deadline) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    child,
    output: () => out,
    base,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const login = async (base: string, email: string, password: string) =>
  (
    await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    })
  ).status;

function walk(p: string, out: { path: string; mode: number }[] = []) {
  const st = lstatSync(p);
  out.push({ path: p, mode: st.mode & 0o777 });
  if (st.isDirectory()) for (const n of readdirSync(p)) walk(path.join(p, n), out);
  return out;
}

describe('first start of the embedded server', { timeout: 120_000 }, () => {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'hf-first-start-'));
  const dataDir = path.join(parent, 'data');
  let first: Started | undefined;
  afterAll(async () => {
    await first?.stop();
    rmSync(parent, { recursive: true, force: true });
  });

  it('item 4: DATA_DIR and everything in it are owner-only, an open DATA_DIR is tightened with a log line', async () => {
    const previous = process.umask(0o022);
    try {
      mkdirSync(path.join(dataDir, 'left-over'), { recursive: true });
      writeFileSync(path.join(dataDir, 'left-over', 'notes.txt'), 'old');
      chmodSync(dataDir, 0o777);
      chmodSync(path.join(dataDir, 'left-over'), 0o755);
      chmodSync(path.join(dataDir, 'left-over', 'notes.txt'), 0o666);
      first = await start(dataDir);
    } finally {
      process.umask(previous);
    }
    expect(first.output()).toMatch(/DATA_DIR .* owner-only/);
    const entries = walk(dataDir);
    // The database really is there (PGlite's cluster, WAL included) and nothing is open to others.
    expect(entries.some((e) => e.path.includes(`${path.sep}pglite${path.sep}`))).toBe(true);
    expect(entries.length).toBeGreaterThan(50);
    const open = entries.filter((e) => (e.mode & 0o077) !== 0).map((e) => `${e.mode.toString(8)} ${e.path}`);
    expect(open).toEqual([]);
  });

  it('item 10: the demo administrator gets a random password, printed once and kept owner-only', async () => {
    if (!first) throw new Error('the server did not start');
    const printed = /Administrator: admin@harvest\.local \/ password: (\S+)/.exec(first.output())?.[1];
    expect(printed).toBeDefined();
    expect(printed).not.toBe('harvest-admin');
    expect(printed?.length).toBeGreaterThanOrEqual(20);
    const file = path.join(dataDir, 'admin-password');
    expect(readFileSync(file, 'utf8').trim()).toBe(printed);
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
    expect(await login(first.base, 'admin@harvest.local', 'harvest-admin')).toBe(401);
    expect(await login(first.base, 'admin@harvest.local', printed ?? '')).toBe(200);

    // A second start does not print it again; it names the file.
    await first.stop();
    first = await start(dataDir);
    expect(first.output()).not.toContain(printed);
    expect(first.output()).toContain(`Administrator: admin@harvest.local (password in ${file})`);
  });
});
