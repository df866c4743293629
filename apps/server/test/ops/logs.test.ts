import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, makeUser, type TestApp } from '../helpers.ts';
import { freePort } from '../net.ts';
import { ServerProcess } from '../support/processes.ts';

/**
 * Logs for people: one line per request (method, path without its query string, status, time);
 * static files and probes only at debug level; pino-pretty lines in development, JSON otherwise.
 */
const web = mkdtempSync(path.join(os.tmpdir(), 'hf-logs-web-'));
mkdirSync(path.join(web, 'assets'));
writeFileSync(path.join(web, 'index.html'), '<!doctype html><meta name="hf-support-email" content=""><title>x</title>');
writeFileSync(path.join(web, 'assets', 'app-1234.js'), 'console.log(1)');

function capture() {
  const lines: Record<string, any>[] = [];
  return { lines, stream: { write: (l: string) => void lines.push(JSON.parse(l)) } };
}

describe('request log lines', () => {
  const info = capture();
  const debug = capture();
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ LOG_LEVEL: 'info', WEB_DIST: web }, { logStream: info.stream });
    b = await createTestApp({ LOG_LEVEL: 'debug', WEB_DIST: web }, { logStream: debug.stream });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    rmSync(web, { recursive: true, force: true });
  });

  it('one info line per API request that changes something or fails, without the query string', async () => {
    const u = await makeUser(a);
    info.lines.length = 0;
    const denied = await call(a, 'GET', '/api/user/dashboard?t=654321');
    expect(denied.statusCode).toBe(401);
    const change = await call(a, 'POST', '/api/withdrawal/request-all?t=654321', {
      token: u.token,
      body: { walletAddress: `0x${'2'.repeat(40)}`, withdrawalPassword: u.withdrawalPassword },
    });
    expect(change.statusCode).toBe(400);
    expect(info.lines.map((l) => [l.level, l.method, l.path, l.status])).toEqual([
      [30, 'GET', '/api/user/dashboard', 401],
      [30, 'POST', '/api/withdrawal/request-all', 400],
    ]);
    expect(info.lines[0]?.msg).toMatch(/^GET \/api\/user\/dashboard 401 [\d.]+ ms$/);
    expect(JSON.stringify(info.lines)).not.toContain('654321');
  });

  it('a read answered 2xx (a poll) writes nothing at info level and one debug line at debug level', async () => {
    for (const [t, lines] of [
      [a, info.lines],
      [b, debug.lines],
    ] as const) {
      const u = await makeUser(t);
      lines.length = 0;
      expect((await call(t, 'GET', '/api/user/dashboard?t=1', { token: u.token })).statusCode).toBe(200);
      expect(lines.filter((l) => l.path).map((l) => `${l.level} ${l.method} ${l.path} ${l.status}`)).toEqual(
        t === a ? [] : ['20 GET /api/user/dashboard 200'],
      );
    }
  });

  it('static assets, pages and probes write nothing at info level, and one debug line each at debug level', async () => {
    info.lines.length = 0;
    debug.lines.length = 0;
    for (const t of [a, b]) {
      expect((await call(t, 'GET', '/assets/app-1234.js')).statusCode).toBe(200);
      expect((await call(t, 'GET', '/dashboard')).statusCode).toBe(200);
      expect((await call(t, 'GET', '/healthz')).statusCode).toBe(200);
    }
    const paths = (lines: Record<string, any>[]) => lines.filter((l) => l.path).map((l) => `${l.level} ${l.path}`);
    expect(paths(info.lines)).not.toContain('20 /assets/app-1234.js');
    expect(info.lines.filter((l) => l.path)).toEqual([]);
    expect(paths(debug.lines)).toEqual(['20 /assets/app-1234.js', '20 /dashboard', '20 /healthz']);
  });
});

describe('development logs', () => {
  let server: ServerProcess | undefined;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hf-logs-data-'));
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('are pino-pretty lines, one per request', { timeout: 120_000 }, async () => {
    server = new ServerProcess(await freePort(), {
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      JWT_SECRET: '',
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
    });
    await server.start();
    await fetch(`${server.baseUrl}/api/user/me?x=1`);
    let log = '';
    for (let i = 0; i < 50 && !/GET \/api\/user\/me 401/.test(log); i++) {
      await new Promise((r) => setTimeout(r, 100));
      log = server.log();
    }
    // [12:34:56.789] INFO: GET /api/user/me 401 1.2 ms
    expect(log).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO.*: GET \/api\/user\/me 401 [\d.]+ ms$/m);
    expect(log).not.toMatch(/^\{"level"/m);
  });
});
