import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { withDatabase } from '../global-setup.ts';
import { freePort } from '../net.ts';

/**
 * Real processes for the tests that need them (crash, operations): a throwaway PostgreSQL cluster,
 * the server as a child process (from source through tsx, or the production build), the CLIs.
 */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
/** Fills the ROOT-relative production build (npm run build:server); the ops tests run it. */
export const DIST_SERVER = 'apps/server/dist/server.js';
/**
 * What processes run by default: the production build in the system and crash suites (their global setup built it
 * once; a process starts in a fraction of the time tsx takes to compile the sources), the sources elsewhere.
 */
export const DEFAULT_ENTRY: 'source' | 'dist' = process.env.SYSTEM_TESTS || process.env.CRASH_TESTS ? 'dist' : 'source';
const PGBIN = process.env.PGBIN ?? '/usr/lib/postgresql/15/bin';
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** PostgreSQL refuses to run as root: run its tools as the postgres user then. */
function pgTool(tool: string, args: string[]): string {
  const cmd = isRoot ? 'runuser' : path.join(PGBIN, tool);
  const argv = isRoot ? ['-u', 'postgres', '--', path.join(PGBIN, tool), ...args] : args;
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export class Cluster {
  readonly dir: string;
  constructor(readonly port: number) {
    this.dir = mkdtempSync(path.join(os.tmpdir(), 'hf-crash-pg-'));
    if (isRoot) chownSync(this.dir, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), 0);
    pgTool('initdb', ['-D', path.join(this.dir, 'data'), '-U', 'postgres', '-A', 'trust', '-E', 'UTF8']);
  }
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }
  start(): void {
    pgTool('pg_ctl', [
      '-D',
      path.join(this.dir, 'data'),
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c max_connections=100`,
      '-l',
      path.join(this.dir, 'log'),
      '-w',
      'start',
    ]);
  }
  /** Crash-stop: no checkpoint, every connection cut; the next start replays the WAL. */
  stopImmediate(): void {
    pgTool('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', 'immediate', 'stop']);
  }
  destroy(): void {
    try {
      pgTool('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', 'immediate', 'stop']);
    } catch {
      /* already stopped */
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A database for one test on PostgreSQL: a new database on DATABASE_URL's server when it is set, else
 * on a throwaway cluster started here (so a test that needs PostgreSQL runs in the PGlite suite too).
 * With `owner`, the database belongs to a new role that is no superuser (it may create databases), and
 * `url` signs in as that role, as an application's DATABASE_URL does; `superuserUrl` is the server's.
 * `server` names the server to use (e.g. one Cluster for several databases of a test file).
 */
export async function scratchPostgres(
  opts: { owner?: boolean; server?: string } = {},
): Promise<{ url: string; superuserUrl: string; destroy(): Promise<void> }> {
  const base = opts.server ?? process.env.DATABASE_URL;
  const cluster = base ? null : new Cluster(await freePort());
  cluster?.start();
  const serverUrl = base ?? (cluster as Cluster).url;
  const id = randomUUID().replace(/-/g, '').slice(0, 16);
  const name = `hf_ops_${id}`;
  const role = opts.owner ? `hf_app_${id}` : null;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  if (role) await admin.query(`CREATE ROLE ${role} LOGIN CREATEDB`);
  await admin.query(`CREATE DATABASE ${name}${role ? ` OWNER ${role}` : ''}`);
  await admin.end();
  const url = new URL(withDatabase(serverUrl, name));
  if (role) url.username = role;
  return {
    url: url.toString(),
    superuserUrl: withDatabase(serverUrl, name),
    async destroy() {
      if (cluster) return cluster.destroy();
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      if (role) {
        // Databases the role made (a restore drill's) go with it.
        const own = await c.query(
          'SELECT datname FROM pg_database d JOIN pg_roles r ON r.oid = d.datdba WHERE r.rolname = $1',
          [role],
        );
        for (const row of own.rows) await c.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
        await c.query(`DROP ROLE IF EXISTS ${role}`);
      }
      await c.end();
    },
  };
}

/**
 * Runs one of the server's command-line tools and answers its exit code and output: from source
 * (`src/cli/NAME.ts`, the default) or as `npm run NAME` runs it (`dist`: the build, see buildServer).
 */
export function runCli(
  name: string,
  args: string[],
  env: Record<string, string | undefined>,
  entry: 'source' | 'dist' = DEFAULT_ENTRY,
) {
  const argv =
    entry === 'dist'
      ? ['--enable-source-maps', `apps/server/dist/cli/${name}.js`, ...args]
      : ['--import', 'tsx', `apps/server/src/cli/${name}.ts`, ...args];
  const r = spawnSync(process.execPath, argv, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** runCli without blocking this process (a test whose RPC proxy or SMTP server runs in-process must keep answering). */
export function runCliAsync(
  name: string,
  args: string[],
  env: Record<string, string | undefined>,
  opts: { input?: string } = {},
): Promise<{ status: number | null; output: string }> {
  const argv =
    DEFAULT_ENTRY === 'dist'
      ? ['--enable-source-maps', `apps/server/dist/cli/${name}.js`]
      : ['--import', 'tsx', `apps/server/src/cli/${name}.ts`];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...argv, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      // No controlling terminal: a command that would ask at one (sweep:sign's confirmation) answers as in a job.
      detached: true,
    });
    child.stdin?.end(opts.input ?? '');
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('exit', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

export interface ServerProcessOptions {
  /** `source` (tsx, the default) or `dist` (the production build, as `npm start` runs it). */
  entry?: 'source' | 'dist';
  /** Another command line and directory, e.g. a service unit's ExecStart and WorkingDirectory. */
  command?: { argv: string[]; cwd: string };
}

export class ServerProcess {
  private child: ChildProcess | null = null;
  private output = '';
  private exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | null = null;
  readonly baseUrl: string;
  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
    private readonly opts: ServerProcessOptions = {},
  ) {
    this.baseUrl = `http://127.0.0.1:${port}`;
  }
  get pid(): number | undefined {
    return this.child?.pid;
  }
  log(): string {
    return this.output;
  }
  get alive(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }
  async start(): Promise<void> {
    const argv =
      (this.opts.entry ?? DEFAULT_ENTRY) === 'dist'
        ? ['--enable-source-maps', DIST_SERVER]
        : ['--import', 'tsx', 'apps/server/src/server.ts'];
    const [cmd, ...args] = this.opts.command?.argv ?? [process.execPath, ...argv];
    if (!cmd) throw new Error('empty command');
    const child = spawn(cmd, args, {
      cwd: this.opts.command?.cwd ?? ROOT,
      env: { ...process.env, ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    const keep = (d: Buffer) => {
      this.output = (this.output + d.toString()).slice(-200_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const deadline = Date.now() + 90_000;
    let last = 'no answer yet';
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited early:\n${this.output.slice(-5000)}`);
      try {
        // A connection that is never answered fails this attempt, not the whole wait.
        const res = await fetch(`${this.baseUrl}/api/user/me`, { signal: AbortSignal.timeout(3000) });
        if (res.status === 401) return;
        last = `${res.status} ${(await res.text()).slice(0, 200)}`;
      } catch (err) {
        last = String((err as { cause?: unknown }).cause ?? err);
      }
      if (Date.now() > deadline)
        throw new Error(`server did not start (last answer: ${last}):\n${this.output.slice(-5000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  /** kill -9: no shutdown hook runs, in-flight requests and transactions are cut. */
  async kill9(): Promise<void> {
    const child = this.child;
    if (!child || !this.alive) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || !this.alive) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  /** Sends a signal (SIGTERM: the graceful shutdown) without waiting. */
  signal(sig: NodeJS.Signals): void {
    this.child?.kill(sig);
  }
  /** How the process ended (waits for it). */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (!this.exit) throw new Error('the server was not started');
    return this.exit;
  }
}

/** POSTs JSON to a running server and answers the status and the parsed body. */
export async function postJson(
  base: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; data: any }> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, data: text ? JSON.parse(text) : undefined };
}
