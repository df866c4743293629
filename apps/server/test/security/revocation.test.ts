import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { call, createTestApp, makeUser, TEST_SECRET, type TestApp, type TestUser } from '../helpers.ts';
import { until } from '../support/until.ts';
import { twoInstances, type TwoInstances } from './two-instances.ts';

/**
 * Revocation across instances, on real PostgreSQL: two instances A and B on one database. Every request
 * reads the user's row and compares its token version (plugins/auth.ts), so what A (or an operator's SQL)
 * changes, B honours in the very next request: a block, a logout and a password change refuse the old
 * token on B, also when B's connections were cut (a frozen process: revocation-frozen.test.ts, a system test).
 */

let env: TwoInstances;
let a: TestApp;
let b: TestApp;
let admin: TestUser;
let sql: TwoInstances['sql'];

beforeAll(async () => {
  env = await twoInstances();
  ({ a, b, admin, sql } = env);
}, 120_000);
afterAll(() => env?.close());

const me = (t: TestApp, u: { token: string }) => call(t, 'GET', '/api/user/me', { token: u.token });

/** A signed-in user B has already answered once. */
async function seenByB(): Promise<TestUser> {
  const u = await makeUser(a);
  expect((await me(b, u)).statusCode).toBe(200);
  return u;
}

describe('revocation on two instances (PostgreSQL)', () => {
  it("every request reads the user's row: an operator's change is seen by both instances at once", async () => {
    const u = await seenByB();
    await sql.query('UPDATE users SET first_name = $1 WHERE id = $2', ['Renamed', u.user.id]);
    expect((await me(b, u)).data.user.firstName).toBe('Renamed');
    expect((await me(a, u)).data.user.firstName).toBe('Renamed');
  });

  it('an administrator blocks a user on A: the next request on B is refused as blocked', async () => {
    for (let i = 0; i < 5; i++) {
      const u = await seenByB();
      const block = await call(a, 'POST', `/api/user/admin/toggle-block/${u.user.id}`, { token: admin.token });
      expect(block.statusCode, JSON.stringify(block.data)).toBe(200);
      const after = await me(b, u);
      expect(after.statusCode).toBe(403);
      expect(after.data.code).toBe('blocked');
    }
  });

  it('a logout on A ends the token on B at once', async () => {
    const u = await seenByB();
    expect((await call(a, 'POST', '/api/user/logout', { token: u.token })).statusCode).toBe(200);
    const after = await me(b, u);
    expect(after.statusCode).toBe(401);
    expect(after.data.code).toBe('session_expired');
  });

  it('a password change on A ends older tokens on B at once; the new token works on B', async () => {
    const u = await seenByB();
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
    const u = await seenByB();
    await sql.query('UPDATE users SET is_blocked = true WHERE id = $1', [u.user.id]);
    expect((await me(b, u)).statusCode).toBe(403);
  });

  it("B's database connections are cut: a block on A is refused on B at once, on new connections", async () => {
    const blocked = await seenByB();
    await sql.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE pid <> pg_backend_pid() AND datname = current_database() AND backend_type = 'client backend'`,
    );
    // The pools drop the dead idle connections when the server's notice arrives, and open new ones.
    await until(
      () => (a.database.poolStats().idle === 0 && b.database.poolStats().idle === 0 ? true : null),
      10_000,
      'both pools dropping the cut connections',
    );
    const block = await call(a, 'POST', `/api/user/admin/toggle-block/${blocked.user.id}`, { token: admin.token });
    expect(block.statusCode).toBe(200);
    const after = await me(b, blocked);
    expect(after.statusCode).toBe(403);
  });
});

describe("the suite's own database (PGlite in the default run): two apps in one process", () => {
  it('a block answered by one app is refused by the other in the next request', async () => {
    const first = await createTestApp({ ADMIN_REQUIRE_2FA: '0' });
    // The second app on the first one's database.
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
