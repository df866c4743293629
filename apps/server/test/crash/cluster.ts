import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Throwaway PostgreSQL cluster and server child process for the crash test. */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
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

export class ServerProcess {
  private child: ChildProcess | null = null;
  private output = '';
  readonly baseUrl: string;
  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {
    this.baseUrl = `http://127.0.0.1:${port}`;
  }
  log(): string {
    return this.output;
  }
  get alive(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }
  async start(): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (d: Buffer) => {
      this.output = (this.output + d.toString()).slice(-200_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited early:\n${this.output.slice(-5000)}`);
      try {
        const res = await fetch(`${this.baseUrl}/api/user/me`);
        if (res.status === 401) return;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) throw new Error(`server did not start:\n${this.output.slice(-5000)}`);
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
}
