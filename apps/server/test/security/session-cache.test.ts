import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openPostgres, type Database } from '../../src/db/client.ts';
import { SettableClock } from '../../src/lib/clock.ts';
import { call, createTestApp, makeUser, TEST_SECRET, type TestApp, type TestUser } from '../helpers.ts';
import { freePort } from '../net.ts';
import { scratchPostgres, ServerProcess } from '../support/processes.ts';
import { startSmtp } from '../smtp.ts';

/**
 * The session cache across instances (docs/decisions/0054-session-cache.md), on real PostgreSQL: two
 * instances A and B on one database, each answering signed-in requests from the users rows it keeps in
 * memory. What A (or an operator's SQL) changes, B must never serve from memory afterwards: a block, a
 * logout and a password change refuse the old token on B in the very next request, also when B's
 * LISTEN connection was cut or B's process was frozen while the change happened.
 */

let scratch: Awaited<ReturnType<typeof scratchPostgres>>;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let sql: pg.Client;
const open: { database: Database; close(): Promise<void> }[] = [];
let a: TestApp;
let b: TestApp;
let admin: TestUser;

async function instance(url: string): Promise<TestApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    RATE_LIMITS: 'off',
    JWT_SECRET: TEST_SECRET,
    SMTP_URL: smtp.url,
    ADMIN_REQUIRE_2FA: '0',
    DEPOSIT_ADDRESS: '0x1111111111111111111111111111111111111111',
  });
  const database = openPostgres(url, 4);
  const clock = new SettableClock();
  const { app, ctx } = await buildApp({ config, database, secret: TEST_SECRET, clock });
  await app.ready();
  const close = async () => {
    await app.close();
    await database.close();
  };
  open.push({ database, close });
  return { app, ctx, clock, database, smtp, close };
}

/** Until the instance's cache may answer (its LISTEN is up and its own heartbeat came back). */
async function cacheReady(t: TestApp): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!t.ctx.sessions.stats().healthy) {
    if (Date.now() > deadline) throw new Error('session cache never became healthy');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const me = (t: TestApp, u: { token: string }) => call(t, 'GET', '/api/user/me', { token: u.token });

/** A signed-in user whose row B holds in memory (B answered it, from the database, once). */
async function cachedOnB(): Promise<TestUser> {
  const u = await makeUser(a);
  expect((await me(b, u)).statusCode).toBe(200);
  const hits = b.ctx.sessions.stats().hits;
  expect((await me(b, u)).statusCode).toBe(200);
  expect(b.ctx.sessions.stats().hits).toBe(hits + 1);
  return u;
}

/** Changes a users row with the notification trigger off: only a read of the database can see it. */
async function silently(statement: string, params: unknown[]): Promise<void> {
  await sql.query('BEGIN');
  await sql.query('ALTER TABLE users DISABLE TRIGGER users_sessions_update');
  await sql.query(statement, params);
  await sql.query('ALTER TABLE users ENABLE TRIGGER users_sessions_update');
  await sql.query('COMMIT');
}

beforeAll(async () => {
  scratch = await scratchPostgres();
  smtp = await startSmtp();
  const migrator = openPostgres(scratch.url, 1);
  await migrator.migrate();
  await migrator.close();
  sql = new pg.Client({ connectionString: scratch.url });
  await sql.connect();
  a = await instance(scratch.url);
  b = await instance(scratch.url);
  await Promise.all([cacheReady(a), cacheReady(b)]);
  admin = await makeUser(a, { isAdmin: true });
}, 120_000);

afterAll(async () => {
  for (const o of open.reverse()) await o.close().catch(() => undefined);
  await sql?.end().catch(() => undefined);
  await smtp?.close();
  await scratch?.destroy();
});

describe('session cache on two instances (PostgreSQL)', () => {
  it('answers a signed-in request from memory: a change that bypasses the notification is not seen', async () => {
    const u = await cachedOnB();
    await silently('UPDATE users SET first_name = $1 WHERE id = $2', ['Hidden', u.user.id]);
    // B answers from its copy, A (which never read the row) from the database.
    expect((await me(b, u)).data.user.firstName).toBe('Test');
    expect((await me(a, u)).data.user.firstName).toBe('Hidden');
  });

  it('an administrator blocks a user on A: the next request on B is refused as blocked', async () => {
    for (let i = 0; i < 5; i++) {
      const u = await cachedOnB();
      const block = await call(a, 'POST', `/api/user/admin/toggle-block/${u.user.id}`, { token: admin.token });
      expect(block.statusCode, JSON.stringify(block.data)).toBe(200);
      const after = await me(b, u);
      expect(after.statusCode).toBe(403);
      expect(after.data.code).toBe('blocked');
    }
  });

  it('a logout on A ends the token on B at once', async () => {
    const u = await cachedOnB();
    expect((await call(a, 'POST', '/api/user/logout', { token: u.token })).statusCode).toBe(200);
    const after = await me(b, u);
    expect(after.statusCode).toBe(401);
    expect(after.data.code).toBe('session_expired');
  });

  it('a password change on A ends older tokens on B at once; the new token works on B', async () => {
    const u = await cachedOnB();
    const change = await call(a, 'PUT', '/api/user/profile', {
      token: u.token,
      body: { firstName: 'New', lastName: 'Name', currentPassword: u.password, newPassword: 'a-new-Password-42' },
    });
    expect(change.statusCode, JSON.stringify(change.data)).toBe(200);
    expect((await me(b, u)).statusCode).toBe(401);
    const fresh = await me(b, { token: change.data.token });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.data.user.firstName).toBe('New');
  });

  it("an operator's SQL block reaches B without any request to A", async () => {
    const u = await cachedOnB();
    await sql.query('UPDATE users SET is_blocked = true WHERE id = $1', [u.user.id]);
    // Delivered asynchronously (no instance waited for it): B stops admitting the token shortly after.
    const deadline = Date.now() + 5_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      status = (await me(b, u)).statusCode;
      if (status === 200) await new Promise((r) => setTimeout(r, 10));
    }
    expect(status).toBe(403);
  });

  it("B's LISTEN connection is cut: a block on A is still refused on B at once, and what B missed is read again", async () => {
    const blocked = await cachedOnB();
    const renamed = await cachedOnB();
    // A change no notification tells B about (as if sent while B did not listen): B still shows its copy.
    await silently('UPDATE users SET first_name = $1 WHERE id = $2', ['Missed', renamed.user.id]);
    expect((await me(b, renamed)).data.user.firstName).toBe('Test');
    await sql.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name = 'hf-sessions' AND datname = current_database()`,
    );
    // A's block waits for B's acknowledgement, which cannot come: at most one lease, after which B's
    // own heartbeat is too old for its cache to answer.
    const block = await call(a, 'POST', `/api/user/admin/toggle-block/${blocked.user.id}`, { token: admin.token });
    expect(block.statusCode).toBe(200);
    expect((await me(b, blocked)).statusCode).toBe(403);
    // B listens again and forgot everything it held: what it could have missed is read again.
    await cacheReady(b);
    expect((await me(b, renamed)).data.user.firstName).toBe('Missed');
    // And B answers from memory again.
    await cachedOnB();
  });
});

describe('a frozen instance (child process, SIGSTOP)', () => {
  it('a block answered by A while B was frozen is refused by B as soon as B runs again', async () => {
    const port = await freePort();
    const child = new ServerProcess(port, {
      NODE_ENV: 'test',
      DATABASE_URL: scratch.url,
      DATABASE_POOL_SIZE: '4',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'hf-sessions-data-')),
      RATE_LIMITS: 'off',
      ADMIN_REQUIRE_2FA: '0',
      JWT_SECRET: TEST_SECRET,
      SMTP_URL: smtp.url,
      LOG_LEVEL: 'warn',
    });
    await child.start();
    try {
      const u = await makeUser(a);
      const get = () => fetch(`${child.baseUrl}/api/user/me`, { headers: { authorization: `Bearer ${u.token}` } });
      // B reads the row once and keeps it; the next answers come from its memory.
      for (let i = 0; i < 3; i++) expect((await get()).status).toBe(200);
      await new Promise((r) => setTimeout(r, 600));
      expect((await get()).status).toBe(200);

      child.signal('SIGSTOP');
      try {
        // A waits for B's answer at most one lease, then answers: B cannot answer from memory any more.
        const block = await call(a, 'POST', `/api/user/admin/toggle-block/${u.user.id}`, { token: admin.token });
        expect(block.statusCode).toBe(200);
      } finally {
        child.signal('SIGCONT');
      }
      const after = await get();
      expect(after.status).toBe(403);
      expect(((await after.json()) as { code: string }).code).toBe('blocked');
    } finally {
      await child.stop();
    }
  }, 120_000);
});

describe("the suite's own database (PGlite in the default run): two apps in one process", () => {
  it('a block answered by one app is refused by the other in the next request', async () => {
    const first = await createTestApp({ ADMIN_REQUIRE_2FA: '0' });
    // The second app on the first one's database (on PGlite: notifications delivered before the commit returns).
    const built = await buildApp({
      config: first.ctx.config,
      database: first.database,
      secret: TEST_SECRET,
      clock: first.clock,
      mailer: first.ctx.mailer,
    });
    await built.app.ready();
    const second: TestApp = { ...first, app: built.app, ctx: built.ctx };
    try {
      await Promise.all([cacheReady(first), cacheReady(second)]);
      const boss = await makeUser(first, { isAdmin: true });
      const u = await makeUser(first);
      expect((await me(second, u)).statusCode).toBe(200);
      expect((await me(second, u)).statusCode).toBe(200);
      const block = await call(first, 'POST', `/api/user/admin/toggle-block/${u.user.id}`, { token: boss.token });
      expect(block.statusCode).toBe(200);
      expect((await me(second, u)).statusCode).toBe(403);
    } finally {
      await built.app.close();
      await first.close();
    }
  });
});
