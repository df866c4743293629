import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHighEntropySecret, loadConfig } from '../../src/config.ts';
import { randomSecretProblem } from '../../src/lib/secret-strength.ts';
import { startAnvil, type Anvil } from '../anvil.ts';
import { redisAvailable, startRedis } from '../redis.ts';
import { startSmtp } from '../smtp.ts';
import { postJson, ROOT, scratchPostgres, ServerProcess } from '../support/processes.ts';
import { buildServer } from '../support/build.ts';

/**
 * docs/OPERATIONS.md, run: its named blocks are read from the document and executed here. Two
 * production instances started from the systemd unit's ExecStart with the environment file, behind a
 * real nginx with the document's configuration, on PostgreSQL, Redis, SMTP and a local chain; then the
 * document's admin, checks, backup and restore-drill commands. Only paths and ports are replaced.
 */
const DOC = readFileSync(path.join(ROOT, 'docs/OPERATIONS.md'), 'utf8');
const KNOWN = [
  'build',
  'harvest.env',
  'harvest@.service',
  'harvest.conf',
  'secret',
  'admin',
  'checks',
  'harvest-backup',
  'restore-drill',
];
const nginxBin = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));

function blocks(): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of DOC.matchAll(/^```(\S*)(?: (\S+))?\n([\s\S]*?)^```$/gm)) {
    const [, lang, name, body] = m;
    if (!lang) continue;
    if (!name) throw new Error(`a \`\`\`${lang} block without a name: the deployment test cannot run it`);
    found.set(name, body ?? '');
  }
  return found;
}

/** KEY=value lines as systemd's EnvironmentFile and sh read them (comments skipped, one pair of quotes removed). */
function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m?.[1]) env[m[1]] = (m[2] ?? '').replace(/^"(.*)"$/, '$1');
  }
  return env;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** Instance ports the unit's `METRICS_PORT=1%i` works with: four digits, both N and 1N free. */
async function instancePorts(n: number): Promise<number[]> {
  const ports: number[] = [];
  for (let p = 4000 + Math.floor(Math.random() * 2000); p < 6500 && ports.length < n; p++)
    if ((await portFree(p)) && (await portFree(10_000 + p))) ports.push(p);
  if (ports.length < n) throw new Error('no free port pair found');
  return ports;
}

const sh = (script: string, env: Record<string, string> = {}) =>
  spawnSync('sh', ['-ec', script], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 180_000 });

// nginx-light and redis-server are installed by .ci/run (system packages step).
describe.runIf(Boolean(nginxBin) && redisAvailable)('docs/OPERATIONS.md deployment, run as written', () => {
  const doc = blocks();
  const work = mkdtempSync(path.join(os.tmpdir(), 'hf-deploy-'));
  const envFile = path.join(work, 'harvest.env');
  const backups = path.join(work, 'backups');
  const nginxDir = path.join(work, 'nginx');
  let db: Awaited<ReturnType<typeof scratchPostgres>> | undefined;
  let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
  let smtp: Awaited<ReturnType<typeof startSmtp>> | undefined;
  let anvil: Anvil | undefined;
  let nginx: ChildProcess | undefined;
  const instances: ServerProcess[] = [];
  let ports: number[] = [];
  let proxy = '';
  let substitute: (text: string) => string = (t) => t;
  let startInstance: (port: number) => ServerProcess = () => {
    throw new Error('not ready');
  };

  beforeAll(async () => {
    buildServer();
    mkdirSync(backups);
    [db, redis, smtp, anvil] = await Promise.all([
      // The application's own role, as in production: a restore refuses a superuser connection.
      scratchPostgres({ owner: true }),
      startRedis(),
      startSmtp(),
      startAnvil({ chainId: 137 }),
    ]);
    // Three distinct ports at once: two instances and the proxy.
    const [p1, p2, proxyPort] = (await instancePorts(3)) as [number, number, number];
    ports = [p1, p2];
    proxy = `http://127.0.0.1:${proxyPort}`;
    substitute = (text) =>
      text
        .replaceAll('/etc/harvest/harvest.env', envFile)
        .replaceAll('/var/backups/harvest', backups)
        .replaceAll('/srv/harvest', ROOT)
        .replaceAll('/usr/bin/node', process.execPath)
        .replaceAll('127.0.0.1:3001', `127.0.0.1:${p1}`)
        .replaceAll('127.0.0.1:3002', `127.0.0.1:${p2}`)
        .replaceAll('127.0.0.1:13001', `127.0.0.1:${10_000 + p1}`)
        .replaceAll('listen 80;', `listen 127.0.0.1:${proxyPort};`);

    // The environment file: the document's, with the machines of this test in place of the examples.
    const secret = sh(doc.get('secret') ?? 'false').stdout.trim();
    const overrides: Record<string, string> = {
      DATABASE_URL: db.url,
      JWT_SECRET: secret,
      BACKUP_KEY: sh(doc.get('secret') ?? 'false').stdout.trim(),
      REDIS_URL: redis.url,
      SMTP_URL: smtp.url,
      CHAIN_RPC_URL: anvil.url,
      PUBLIC_URL: proxy,
    };
    const documented = parseEnvFile(doc.get('harvest.env') ?? '');
    for (const key of Object.keys(overrides)) expect(documented, `harvest.env lacks ${key}`).toHaveProperty(key);
    const env = { ...documented, ...overrides };
    writeFileSync(
      envFile,
      Object.entries(env)
        .map(([k, v]) => `${k}="${v}"`)
        .join('\n') + '\n',
      { mode: 0o600 },
    );

    // The unit: ExecStart in WorkingDirectory with EnvironmentFile and Environment (%i = the port).
    const unit = substitute(doc.get('harvest@.service') ?? '');
    const setting = (key: string) => new RegExp(`^${key}=(.*)$`, 'm').exec(unit)?.[1] ?? '';
    expect(setting('EnvironmentFile')).toBe(envFile);
    startInstance = (port) => {
      const instanceEnv: Record<string, string> = { ...parseEnvFile(readFileSync(envFile, 'utf8')) };
      for (const pair of setting('Environment').replaceAll('%i', String(port)).split(/\s+/)) {
        const [k, ...v] = pair.split('=');
        if (k) instanceEnv[k] = v.join('=');
      }
      return new ServerProcess(port, instanceEnv, {
        command: { argv: setting('ExecStart').split(/\s+/), cwd: setting('WorkingDirectory') },
      });
    };
    for (const port of ports) instances.push(startInstance(port));
    await Promise.all(instances.map((i) => i.start()));

    // nginx with the document's server block inside a minimal http context of its own.
    mkdirSync(nginxDir);
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
      .map((k) => `${k}_temp_path ${path.join(nginxDir, k)};`)
      .join('\n  ');
    writeFileSync(
      path.join(nginxDir, 'nginx.conf'),
      `worker_processes 1;\nerror_log ${nginxDir}/error.log warn;\npid ${nginxDir}/nginx.pid;\nevents { worker_connections 128; }\nhttp {\n  access_log off;\n  ${temp}\n${substitute(doc.get('harvest.conf') ?? '')}\n}\n`,
    );
    nginx = spawn(nginxBin as string, ['-p', nginxDir, '-c', path.join(nginxDir, 'nginx.conf'), '-g', 'daemon off;'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`${proxy}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 240_000);

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const done = new Promise((r) => nginx?.once('exit', r));
      nginx.kill('SIGQUIT');
      await done;
    }
    await Promise.all(instances.map((i) => i.stop()));
    await Promise.all([redis?.stop(), smtp?.close(), anvil?.stop()]);
    await db?.destroy();
    rmSync(work, { recursive: true, force: true });
  });

  it('every block of the guide is one this test runs, and the build commands are the ones CI runs', () => {
    expect([...doc.keys()].sort()).toEqual([...KNOWN].sort());
    const ci = readFileSync(path.join(ROOT, '.ci/run'), 'utf8');
    for (const line of (doc.get('build') ?? '').split('\n').filter((l) => l.startsWith('npm ')))
      expect(ci, `.ci/run runs ${line}`).toMatch(new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'));
  });

  it('the secret command makes a secret the server accepts, and the environment file is a valid production configuration', () => {
    const secret = sh(doc.get('secret') ?? 'false').stdout.trim();
    expect(isHighEntropySecret(secret)).toBe(true);
    expect(randomSecretProblem(secret)).toBeNull();
    const config = loadConfig(parseEnvFile(readFileSync(envFile, 'utf8')));
    expect(config.isProduction).toBe(true);
    expect(config.adminRequire2fa).toBe(true);
  });

  it(
    'serves through nginx on both instances: the admin command, sign-in, shared per-IP limits in Redis',
    { timeout: 120_000 },
    async () => {
      const admin = sh(substitute(doc.get('admin') ?? 'false'));
      expect(admin.status, admin.stdout + admin.stderr).toBe(0);
      const password = /--password '([^']+)'/.exec(doc.get('admin') ?? '')?.[1];
      const login = await postJson(proxy, '/api/login', { email: 'ops@harvest.example.com', password });
      expect(login.status, JSON.stringify(login.data)).toBe(200);
      for (let i = 0; i < 6; i++) {
        const me = await fetch(`${proxy}/api/user/me`, { headers: { authorization: `Bearer ${login.data.token}` } });
        expect(me.status).toBe(200);
      }
      expect(await (await fetch(`${proxy}/readyz`)).json()).toEqual({ status: 'ok' });
      // Both instances served (round robin): each logged a refused read.
      for (let i = 0; i < 6; i++)
        expect((await fetch(`${proxy}/api/user/me`, { headers: { authorization: 'Bearer not-a-token' } })).status).toBe(
          401,
        );
      for (const i of instances) expect(i.log()).toContain('GET /api/user/me 401');

      // /api/send-code allows 10 per 10 minutes per client address: counted in Redis across both instances.
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++)
        statuses.push((await postJson(proxy, '/api/send-code', { email: `limit${i}@example.com` })).status);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
      expect(statuses[10]).toBe(429);
      expect(smtp?.mails.length).toBe(10);
    },
  );

  it('the checks commands answer (readiness, metrics on the loopback metrics port)', () => {
    const r = sh(substitute(doc.get('checks') ?? 'false'));
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('{"status":"ok"}');
    expect(r.stdout).toMatch(/^deposits_pending \d+$/m);
    expect(r.stdout).toMatch(/^db_pool_connections\{state="waiting"\} \d+$/m);
  });

  it(
    'a rolling restart loses no request: one instance stops (SIGTERM, exit 0) while nginx keeps serving',
    { timeout: 120_000 },
    async () => {
      const [first] = instances;
      if (!first) throw new Error('no instance');
      first.signal('SIGTERM');
      const statuses: number[] = [];
      while (first.alive) statuses.push((await fetch(`${proxy}/readyz`)).status);
      for (let i = 0; i < 10; i++) statuses.push((await fetch(`${proxy}/readyz`)).status);
      expect(await first.exited()).toEqual({ code: 0, signal: null });
      expect(new Set(statuses)).toEqual(new Set([200]));
      const again = startInstance(first.port);
      instances[0] = again;
      await again.start();
    },
  );

  it(
    'the backup crontab line and the restore drill run as written: the drill restores the newest backup and the ledger check passes',
    { timeout: 180_000 },
    () => {
      const cron = (doc.get('harvest-backup') ?? '').trim();
      const command = cron.replace(/^(\S+\s+){5}/, '').replaceAll('\\%', '%');
      const backup = sh(substitute(command));
      expect(backup.status, backup.stdout + backup.stderr).toBe(0);
      expect(readdirSync(backups).filter((f) => /^harvest-\d{8}-\d{4}\.backup$/.test(f))).toHaveLength(1);
      const drill = sh(substitute(doc.get('restore-drill') ?? 'false'));
      expect(drill.status, drill.stdout + drill.stderr).toBe(0);
      expect(drill.stdout).toContain('Restored');
      expect(drill.stdout).toContain('Ledger check: no violations');
    },
  );
});
