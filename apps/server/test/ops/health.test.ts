import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { PGLITE_OPTIONS, wrapPglite } from '../../src/db/pglite.ts';
import { call, createTestApp, makeUser, TEST_SECRET, type TestApp } from '../helpers.ts';

/** GET /healthz (the process answers) and GET /readyz (it can serve: database, migrations, module checks). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'on' });
});
afterAll(() => t.close());

describe('health probes', () => {
  it('answer { status: "ok" } without a session', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const res = await call(t, 'GET', path);
      expect(res.statusCode, path).toBe(200);
      expect(res.data).toEqual({ status: 'ok' });
      expect(res.headers['content-type']).toMatch(/application\/json/);
    }
  });

  it('are exempt from rate limits: 300 probes from one address in a row all answer 200', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 300; i++) statuses.add((await call(t, 'GET', i % 2 ? '/readyz' : '/healthz')).statusCode);
    expect([...statuses]).toEqual([200]);
    // The limits are on: a limited route does answer 429 from the same address.
    let limited = 0;
    for (let i = 0; i < 12 && limited === 0; i++)
      if ((await call(t, 'POST', '/api/send-code', { body: { email: 'probe@example.com' } })).statusCode === 429)
        limited++;
    expect(limited).toBe(1);
  });

  it("ignore a session that is sent anyway, even a blocked user's", async () => {
    const u = await makeUser(t);
    await t.ctx.db.execute(`UPDATE users SET is_blocked = true WHERE id = '${u.user.id}'`);
    expect((await call(t, 'GET', '/readyz', { token: u.token })).statusCode).toBe(200);
  });

  it('/readyz names a failing module check (the extension point the deposit watcher uses) and answers 503', async () => {
    t.ctx.readiness.push({ name: 'deposit_watcher', run: async () => 'behind the chain head by 500 blocks' });
    try {
      const res = await call(t, 'GET', '/readyz');
      expect(res.statusCode).toBe(503);
      expect(res.data).toEqual({
        status: 'unavailable',
        failed: [{ check: 'deposit_watcher', detail: 'behind the chain head by 500 blocks' }],
      });
      // Liveness does not depend on it: restarting the process would not help.
      expect((await call(t, 'GET', '/healthz')).statusCode).toBe(200);
    } finally {
      t.ctx.readiness.pop();
    }
    t.ctx.readiness.push({
      name: 'throws',
      run: async () => {
        throw new Error('rpc timeout');
      },
    });
    try {
      // A check that throws is named only: its error is for the log, not for an unauthenticated probe.
      expect((await call(t, 'GET', '/readyz')).data.failed).toEqual([{ check: 'throws' }]);
    } finally {
      t.ctx.readiness.pop();
    }
  });

  it('/readyz answers 503 while shutting down', async () => {
    t.ctx.lifecycle.shuttingDown = true;
    try {
      const res = await call(t, 'GET', '/readyz');
      expect(res.statusCode).toBe(503);
      expect(res.data).toEqual({ status: 'unavailable', failed: [{ check: 'shutdown', detail: 'shutting down' }] });
    } finally {
      t.ctx.lifecycle.shuttingDown = false;
    }
  });
});

describe('readiness of the database', () => {
  it('an unmigrated database is not ready (migrations); a closed one is not either (database) while /healthz stays 200', async () => {
    // The run's cluster before any migration (global-setup.ts; a run on PostgreSQL makes none): no initdb here.
    const empty = process.env.HF_PGLITE_EMPTY;
    const client = await PGlite.create({
      ...PGLITE_OPTIONS,
      ...(empty ? { loadDataDir: new Blob([readFileSync(empty)]) } : {}),
    });
    const database = wrapPglite(client);
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', JWT_SECRET: TEST_SECRET });
    const { app } = await buildApp({ config, database, secret: TEST_SECRET });
    try {
      const unmigrated = await app.inject({ method: 'GET', url: '/readyz' });
      expect(unmigrated.statusCode).toBe(503);
      expect(unmigrated.json()).toEqual({
        status: 'unavailable',
        failed: [{ check: 'migrations', detail: 'not every migration is applied' }],
      });
      await database.migrate();
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      await client.close();
      const closed = await app.inject({ method: 'GET', url: '/readyz' });
      expect(closed.statusCode).toBe(503);
      expect(closed.json().failed.map((f: { check: string }) => f.check)).toContain('database');
      // No database call in the liveness probe.
      expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    } finally {
      await app.close();
    }
  });
});
