import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSmtp } from '../../apps/server/test/smtp.ts';
import { freePort } from '../../apps/server/test/net.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ADMIN = { email: 'e2e-admin@harvest.local', password: 'e2e-admin-password' };

export interface RunningApp {
  baseURL: string;
  smtp: Awaited<ReturnType<typeof startSmtp>>;
  log: () => string;
  api<T = any>(
    method: string,
    url: string,
    opts?: { token?: string; body?: unknown },
  ): Promise<{ status: number; data: T }>;
  adminToken(): Promise<string>;
  setClock(iso: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the production build of the server (built SPA + API) as a child process on a fresh embedded
 * database, with a real SMTP server in this process and the test clock enabled.
 */
export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  // On a shared machine (TEST_PORTS) the SMTP server keeps to the given ports too.
  const smtp = await startSmtp(process.env.TEST_PORTS ? { port: await freePort() } : {});
  // A given port (PORT, or E2E_PORT: an engineer's own range on a shared machine, one file at a time), or any free one.
  const given = env.PORT ?? process.env.E2E_PORT;
  const port = given ? Number(given) : await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hf-e2e-'));
  let output = '';
  // The compiled server, as `npm start` runs it (`npm run build` makes apps/server/dist and apps/web/dist).
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/server.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      TEST_CLOCK: '1',
      RATE_LIMITS: 'off',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SUPPORT_EMAIL: 'help@harvest.example',
      JWT_SECRET: 'e2e-7Qm2xV9pLk4Rt8Wz3Nc6Hb1Jd5Fg0Ys-secret',
      LOG_LEVEL: 'warn',
      // E-mailed links open the address the browser uses (localStorage is per origin).
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`${baseURL}/api/user/me`);
      if (res.status === 401) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      // A server that never answered must not outlive the run (it would hold its port and a core).
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  async function api(method: string, url: string, opts: { token?: string; body?: unknown } = {}) {
    const res = await fetch(`${baseURL}/api${url}`, {
      method,
      headers: {
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    return { status: res.status, data: text ? JSON.parse(text) : null };
  }
  let adminTokenCache: string | undefined;
  return {
    baseURL,
    smtp,
    log: () => output,
    api,
    async adminToken() {
      if (!adminTokenCache) adminTokenCache = (await api('POST', '/login', { body: ADMIN })).data.token;
      return adminTokenCache ?? '';
    },
    async setClock(iso: string) {
      const res = await api('POST', '/__test__/clock', { body: { now: iso } });
      if (res.status !== 200) throw new Error(`clock: ${JSON.stringify(res.data)}`);
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await smtp.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
